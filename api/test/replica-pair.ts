import { signIn, startTestApi, TEST_ADMIN, type TestApi } from './test-api';
import { startSmtpSink } from './smtp-sink';

export interface ReplicaPair {
  api: TestApi;
  second: TestApi;
  /** the admin's session cookie (valid on both: they share SESSION_SECRET and the database) */
  admin: string;
  smtp: Awaited<ReturnType<typeof startSmtpSink>>;
}

/**
 * Two replicas of the API on one fresh database, sharing a session secret and a real SMTP server on loopback, for
 * the spec file that calls this at its top: started before its tests, stopped after them.
 */
export function replicaPairForThisFile(env: Record<string, string> = {}): ReplicaPair {
  const pair = {} as ReplicaPair;
  const shared = { SESSION_SECRET: 'a-session-secret-the-two-replicas-of-this-file-share', ...env };
  beforeAll(async () => {
    pair.smtp = await startSmtpSink();
    pair.api = await startTestApi({ ...shared, SMTP_URL: pair.smtp.url });
    pair.second = await startTestApi({ ...shared, SMTP_URL: pair.smtp.url, DATABASE_URL: pair.api.databaseUrl });
    pair.admin = await signIn(pair.api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(async () => {
    await pair.second?.stop();
    await pair.api?.stop();
    await pair.smtp?.stop();
  });
  return pair;
}
