import pino from 'pino';
import { signIn, startTestApi, TEST_ADMIN, withRoomInTheMinute, type TestApi } from '../../../test/test-api';

/** A second file: its replicas run with a small TOKEN_RATE_LIMIT that the other token tests would run into. */
const LIMIT = 5;
let api: TestApi;
let second: TestApi;
let admin: string;
/** The first replica's log lines. */
const logged: { req?: { url?: string; token?: string }; res?: { statusCode: number } }[] = [];
beforeAll(async () => {
  // the access lines of one turn of the event loop come in one write
  const logger = pino(
    { level: 'info' },
    {
      write: (chunk: string) =>
        void logged.push(
          ...chunk
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line)),
        ),
    },
  );
  api = await startTestApi({ TOKEN_RATE_LIMIT: String(LIMIT) }, { logger });
  second = await startTestApi({ DATABASE_URL: api.databaseUrl, TOKEN_RATE_LIMIT: String(LIMIT) });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await second?.stop();
  await api?.stop();
});

const get = (replica: TestApi, token: string) =>
  fetch(`${replica.baseUrl}/api/circuit-breakers`, { headers: { authorization: `Bearer ${token}` } });

async function createToken(): Promise<string> {
  return (await createTokenWithId()).token;
}

async function createTokenWithId(): Promise<{ id: string; token: string }> {
  const response = await api.call('/api/tokens', { method: 'POST', cookie: admin, body: { name: 'script', expiresInDays: 1 } });
  return response.json();
}

it('refuses a token past TOKEN_RATE_LIMIT requests a minute with a 429 and Retry-After, on every replica', async () => {
  const token = await createToken();
  const other = await createToken();
  await withRoomInTheMinute();
  const answers = await Promise.all(Array.from({ length: LIMIT + 3 }, () => get(api, token)));
  expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(LIMIT).fill(200), 429, 429, 429]);
  const refused = answers.find((answer) => answer.status === 429)!;
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect((await refused.json()).message).toBe(
    `This access token made ${LIMIT} requests this minute, the most one token may (TOKEN_RATE_LIMIT); try again in ${retryAfter} s`,
  );
  // the other replica learns the count from the table: the token's minute is used up there too
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect((await get(second, token)).status).toBe(429);
  // a token's limit is its own
  expect((await get(second, other)).status).toBe(200);
});

it('names the token, never its secret, in the request log line of each request made with it', async () => {
  const { id, token } = await createTokenWithId();
  expect((await fetch(`${api.baseUrl}/api/auth/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const lines = logged.filter((line) => line.req?.url === '/api/auth/user');
  expect(lines.at(-1)).toMatchObject({ req: { token: id }, res: { statusCode: 200 } });
  expect(JSON.stringify(logged)).not.toContain(token);
});
