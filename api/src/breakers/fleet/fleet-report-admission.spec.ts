import type { AgentBreakerReport } from '@cbh/contracts';
import { withRoomInTheMinute } from '../../../test/test-api';
import { fleetApiForThisFile } from './fleet.test-kit';

// Who may send an agent's report, and what the hub takes of it: a service account's token for its own service, a
// report within the protocol's bounds, the breakers and instances one service may add, and each token's rate.
const { spec, post, serviceToken, sendReport, reply, breaker, report } = fleetApiForThisFile();

describe('who may report, and what', () => {
  it("takes only a service account's token, for its own service", async () => {
    const token = await serviceToken('payments-svc');
    const mine = report('payments-svc', 'p-1', [breaker('card')]);
    expect((await sendReport('not-a-token', mine)).status).toBe(401);
    const otherService = await sendReport(token, report('checkout', 'p-1', [breaker('card')]));
    expect(otherService.status).toBe(403);
    expect((await otherService.json()).message).toBe('This token reports for service payments-svc; it cannot report for checkout');

    const personal = await post('/api/tokens', { name: 'mine', expiresInDays: 1 });
    const personalToken = ((await personal.json()) as { token: string }).token;
    const person = await sendReport(personalToken, mine);
    expect(person.status).toBe(403);
    expect((await person.json()).message).toBe("Only a service account's access token may report breakers");
    const cookie = await spec.api.call('/api/agent/reports', { method: 'POST', cookie: spec.admin, body: mine });
    expect(cookie.status).toBe(403);
  });

  it('refuses an unknown version with a clear error, and reports out of bounds, naming the field', async () => {
    const token = await serviceToken('bounds');
    const newer = await sendReport(token, { ...report('bounds', 'b-1', []), version: 2, somethingNew: true });
    expect(newer.status).toBe(400);
    expect((await newer.json()).message).toBe('Agent protocol version 2 is not supported: this hub speaks version 1');

    // unknown fields are ignored
    expect(
      (await sendReport(token, { ...report('bounds', 'b-1', [{ ...breaker('x'), extra: 1 } as AgentBreakerReport]), hint: 'x' })).status,
    ).toBe(200);

    const tooMany = report(
      'bounds',
      'b-1',
      Array.from({ length: 501 }, (_, i) => breaker(`b${i}`)),
    );
    const refused = await sendReport(token, tooMany);
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toMatch(/^breakers: /);
    const badHistogram = await sendReport(
      token,
      report('bounds', 'b-1', [
        breaker('y', {}, { window: { ...breaker('y').window, latencyHistogram: { boundsMs: [1, 2], counts: [1] } } }),
      ]),
    );
    expect(badHistogram.status).toBe(400);
    expect((await badHistogram.json()).message).toMatch(/counts must have one more entry than boundsMs/);
    const histograms: [AgentBreakerReport['window']['latencyHistogram'], string][] = [
      [{ boundsMs: [1, 2], counts: [1, -1, 0] }, 'counts must be whole numbers from 0 to 1000000000'],
      [{ boundsMs: [1, 2], counts: [1, 0.5, 0] }, 'counts must be whole numbers from 0 to 1000000000'],
      [{ boundsMs: [-1, 2], counts: [1, 1, 0] }, 'boundsMs must be from 0 to 86400000 ms'],
    ];
    for (const [latencyHistogram, message] of histograms) {
      const bad = await sendReport(
        token,
        report('bounds', 'b-1', [
          breaker('z', {}, { window: { ...breaker('z').window, latencyHistogram } } as Partial<AgentBreakerReport>),
        ]),
      );
      expect(bad.status).toBe(400);
      expect((await bad.json()).message).toContain(message);
    }
    const twice = await sendReport(token, report('bounds', 'b-1', [breaker('Card'), breaker('card')]));
    expect(twice.status).toBe(400);
    expect((await twice.json()).message).toBe('breakers: breaker names must be unique within a report, whatever their letter case');
    const move = { from: 'CLOSED', to: 'OPEN', at: new Date().toISOString(), reason: 'x' } as const;
    const moves = await sendReport(
      token,
      report('bounds', 'b-1', [
        breaker('m1', {}, { transitions: Array(60).fill(move) }),
        breaker('m2', {}, { transitions: Array(41).fill(move) }),
      ]),
    );
    expect(moves.status).toBe(400);
    expect((await moves.json()).message).toBe('breakers: at most 100 transitions in all');
    const longName = await sendReport(token, report('bounds', 'x'.repeat(201), []));
    expect(longName.status).toBe(400);
    expect((await longName.json()).message).toMatch(/^instance: /);
  });

  it('bounds what one service may add: breakers on the hub and instances heard within the hour', async () => {
    const token = await serviceToken('crowded');
    for (let batch = 0; batch < 4; batch++) {
      const breakers = Array.from({ length: 500 }, (_, i) => breaker(`dependency-${batch * 500 + i}`));
      expect((await sendReport(token, report('crowded', 'c-1', breakers))).status).toBe(200);
    }
    // the report is taken for the breakers the hub has; the new one is left out, and the reply says so
    const more = await reply(token, report('crowded', 'c-1', [breaker('dependency-0'), breaker('one-too-many')]));
    expect(more.notices).toEqual([
      'service crowded has 2000 breakers on the hub, the most one service may: 1 new breakers left out (one-too-many); delete some on the hub',
    ]);
    expect(await spec.api.sql("SELECT 1 FROM circuit_breaker_configs WHERE service = 'crowded' AND name = 'one-too-many'")).toEqual([]);

    // a thousand instances heard within the hour (written behind the API's back; the silent ones count too), then a new one
    await spec.api.sql(
      `INSERT INTO agent_instances (service, instance, last_seen)
       SELECT 'crowded', 'crowd-' || n, now() - interval '50 minutes' FROM generate_series(1, 999) AS n`,
    );
    const refused = await sendReport(token, report('crowded', 'newcomer', [breaker('dependency-0')]));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await refused.json()).message).toBe(
      'Service crowded had 1000 instances reporting within the hour, the most one service may (1000); instance newcomer is not taken',
    );
    expect((await sendReport(token, report('crowded', 'crowd-7', [breaker('dependency-0')]))).status).toBe(200);
    // an instance not heard for an hour leaves the count, and makes room
    await spec.api.sql("UPDATE agent_instances SET last_seen = now() - interval '61 minutes' WHERE instance = 'crowd-8'");
    expect((await sendReport(token, report('crowded', 'newcomer', [breaker('dependency-0')]))).status).toBe(200);
  });

  it("counts each token's reports against its own rate limit", async () => {
    const token = await serviceToken('chatty');
    const other = await serviceToken('quiet');
    const statuses: number[] = [];
    // the limit counts per minute of the clock: 41 reports that straddled a minute would be counted in two
    await withRoomInTheMinute();
    for (let i = 0; i < 41; i++) statuses.push((await sendReport(token, report('chatty', 'c-1', []))).status);
    expect(statuses.slice(0, 40).every((status) => status === 200)).toBe(true);
    expect(statuses[40]).toBe(429);
    const limited = await sendReport(token, report('chatty', 'c-1', []));
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await sendReport(other, report('quiet', 'q-1', []))).status).toBe(200);
  });
});
