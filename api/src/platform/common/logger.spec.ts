import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import { accessLog, echoRequestId, withoutTokens, writeWaitingLines } from './logger';

it('logs the URLs of single-use links without their tokens', () => {
  expect(withoutTokens('/api/invitations/abc_DEF-123?x=1')).toBe('/api/invitations/[token]?x=1');
  expect(withoutTokens('/api/auth/elevate/verify/s3cr3t')).toBe('/api/auth/elevate/verify/[token]');
  expect(withoutTokens('/api/users/7')).toBe('/api/users/7');
});

it('logs a token sent in the query (refused) without it', () => {
  expect(withoutTokens('/api/users?access_token=cbh_secret&x=1')).toBe('/api/users?access_token=[token]&x=1');
  expect(withoutTokens('/metrics?TOKEN=cbh_secret')).toBe('/metrics?TOKEN=[token]');
});

it('logs an acknowledge link, a subscription link and a calendar address without what acts as their credential', () => {
  expect(withoutTokens('/api/public/acknowledge?code=7.cabc.MAC')).toBe('/api/public/acknowledge?code=[token]');
  expect(withoutTokens('/status/payments/confirm?code=1.2.MAC')).toBe('/status/payments/confirm?code=[token]');
  expect(withoutTokens('/api/public/on-call/ocf_secret.ics')).toBe('/api/public/on-call/[token]');
});

describe('the access log', () => {
  /** An API's HTTP server with the access log, its lines kept as the destination receives them. */
  async function loggedServer() {
    const lines: string[] = [];
    const logger = pino({ level: 'info', base: { service: 'api' } }, { write: (line: string) => void lines.push(line) });
    const http = Fastify({ genReqId: () => 'req-1' });
    http.addHook('onRequest', echoRequestId);
    const log = accessLog(logger);
    http.addHook('onResponse', (request, reply, done) => {
      log(request, reply);
      done();
    });
    http.get('/api/things', async () => ({ ok: true }));
    http.get('/api/broken', async (_request, reply) => reply.code(503).send({ down: true }));
    http.get('/api/tokened', async (request) => {
      (request as unknown as { apiToken: { id: string } }).apiToken = { id: 'tok-7' };
      return {};
    });
    const url = await http.listen({ port: 0, host: '127.0.0.1' });
    // a line is written once the response has gone out (onResponse), which may be after the client has it
    const get = async (path: string) => {
      const before = lines.length;
      const response = await fetch(`${url}${path}`);
      for (let wait = 0; lines.length === before && wait < 100; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
      return response;
    };
    return { http, lines, logger, get };
  }

  it('writes one JSON line per request, as pino writes its lines, and echoes the request id', async () => {
    const { http, lines, logger, get } = await loggedServer();
    const response = await get('/api/things?token=cbh_secret');
    expect(response.headers.get('x-request-id')).toBe('req-1');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    const line = JSON.parse(lines[0]!);
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      service: 'api',
      req: { id: 'req-1', method: 'GET', url: '/api/things?token=[token]' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
      msg: 'request completed',
    });
    expect(Math.abs(line.time - Date.now())).toBeLessThan(60_000);
    // the line's keys in pino's order, so that one reader takes both kinds of line
    logger.info({ req: { id: 'x' } }, 'other');
    expect(Object.keys(JSON.parse(lines[1]!)).slice(0, 3)).toEqual(Object.keys(line).slice(0, 3));
    await http.close();
  });

  it('logs a server error at error level, names a token by its id, and writes nothing below the level', async () => {
    const { http, lines, logger, get } = await loggedServer();
    await get('/api/broken');
    await get('/api/tokened');
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 50, res: { statusCode: 503 } });
    expect(JSON.parse(lines[1]!).req).toEqual({ id: 'req-1', method: 'GET', url: '/api/tokened', token: 'tok-7' });
    logger.level = 'warn';
    await get('/api/things');
    expect(lines).toHaveLength(2);
    await http.close();
  });

  it('writes the lines of the requests answered in one turn of the event loop together, after it, each whole', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info', base: { service: 'api' } }, { write: (line: string) => void lines.push(line) });
    const log = accessLog(logger);
    for (const id of ['a', 'b', 'c'])
      log({ id, method: 'GET', url: `/api/${id}` } as FastifyRequest, { statusCode: 200, elapsedTime: 1.4 } as FastifyReply);
    expect(lines).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);
    const written = lines[0]!.split('\n');
    expect(written.pop()).toBe('');
    expect(written.map((line) => JSON.parse(line).req)).toEqual(['a', 'b', 'c'].map((id) => ({ id, method: 'GET', url: `/api/${id}` })));
    expect(JSON.parse(written[0]!).responseTime).toBe(1);
  });

  it('writes the lines still waiting for the end of the turn, and flushes the destination, when the process exits in it', () => {
    const lines: string[] = [];
    let flushed = 0;
    const destination = { write: (chunk: string) => void lines.push(chunk), flushSync: () => void flushed++ };
    const logger = pino({ level: 'info' }, destination);
    accessLog(logger)(
      { id: 'last', method: 'GET', url: '/api/last' } as FastifyRequest,
      { statusCode: 200, elapsedTime: 1 } as FastifyReply,
    );
    expect(lines).toHaveLength(0);
    // what process.on('exit') runs
    writeWaitingLines();
    expect(lines.map((chunk) => JSON.parse(chunk).req.id)).toEqual(['last']);
    expect(flushed).toBe(1);
    // and once written, the end of the turn writes nothing again
    writeWaitingLines();
    expect(lines).toHaveLength(1);
  });
});
