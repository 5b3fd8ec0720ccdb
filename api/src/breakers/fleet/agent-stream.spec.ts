import { AGENT_PROTOCOL_LIMITS, AGENT_STREAM_CLOSE, WS_SIGNED_OUT_CLOSE } from '@cbh/contracts';
import { openAgentStream, streamUpgradeStatus } from '../../../test/agent-reports';
import { fleetApiForThisFile } from './fleet.test-kit';

// The agents' stream (AGENT_STREAM_PATH): reports taken as POSTed ones are, on one socket per instance, answered in
// order; a breaker's settings sent once per connection; who may open one; and when the hub closes it.
const { spec, get, post, serviceToken, sendReport, breaker, report, breakerNamed, carried, statsOf } = fleetApiForThisFile();

describe("an agent's stream", () => {
  it('takes reports as a POST does, on either replica, and keeps the settings a connection sent', async () => {
    const token = await serviceToken('stream-svc');
    const first = await openAgentStream(spec.api.baseUrl, token);
    const second = await openAgentStream(spec.second.baseUrl, token);
    const answer = await first.send(report('stream-svc', 's-1', [breaker('ledger', { successes: 30, failures: 10 })]));
    expect(answer).toEqual({ status: 200, reply: { version: 1, reportEveryMs: 1000, controls: [] } });
    expect((await second.send(report('stream-svc', 's-2', [breaker('ledger', { successes: 20 })]))).status).toBe(200);

    const listed = await breakerNamed('stream-svc', 'ledger', spec.second);
    expect(listed.librarySettings).toEqual({ errorThresholdPercentage: 50, timeout: 3000, resetTimeout: 30000 });
    // the next reports leave the settings out: the connection's last ones stand, and the calls are summed as ever
    const { settings: _, ...withoutSettings } = breaker('ledger', { successes: 5 });
    expect((await first.send(report('stream-svc', 's-1', [withoutSettings]))).status).toBe(200);
    expect((await second.send(report('stream-svc', 's-2', [withoutSettings]))).status).toBe(200);
    for (const replica of [spec.api, spec.second]) {
      expect(
        await carried(async () => {
          const stats = await statsOf(listed.id, replica);
          return stats?.successCount === 60 && stats.failureCount === 10 && stats.instances?.total === 2;
        }),
      ).toBe(true);
    }
    expect((await breakerNamed('stream-svc', 'ledger')).librarySettings).toEqual(listed.librarySettings);

    // the settings a report may leave out are those of the last report taken, which carried that breaker
    expect((await first.send(report('stream-svc', 's-1', [breaker('journal')]))).status).toBe(200);
    expect(await first.send(report('stream-svc', 's-1', [withoutSettings]))).toMatchObject({ status: 400 });
    first.socket.close();
    second.socket.close();
  });

  it('refuses a report it cannot read with an answer, and the stream goes on', async () => {
    const token = await serviceToken('stream-bad');
    const stream = await openAgentStream(spec.api.baseUrl, token);
    expect(await stream.send('{not json')).toEqual({ status: 400, message: 'A report is a text frame of JSON (AgentReport)' });
    // a new connection has no settings to go by: a breaker's first report on it carries them
    const { settings: _, ...withoutSettings } = breaker('fresh');
    expect(await stream.send(report('stream-bad', 'b-1', [withoutSettings]))).toEqual({
      status: 400,
      message: 'Breaker "fresh" has no settings, and none were sent for it in the last report taken on this connection',
    });
    const other = await stream.send(report('someone-else', 'b-1', [breaker('fresh')]));
    expect(other).toEqual({ status: 403, message: 'This token reports for service stream-bad; it cannot report for someone-else' });
    expect((await stream.send({ ...report('stream-bad', 'b-1', []), version: 2 })).status).toBe(400);
    expect((await stream.send(report('stream-bad', 'b-1', [breaker('fresh')]))).status).toBe(200);

    // a POST carries every breaker's settings, a stream or not
    const posted = await sendReport(token, report('stream-bad', 'b-2', [withoutSettings]));
    expect(posted.status).toBe(400);
    expect((await posted.json()).message).toBe(
      'Breaker "fresh" has no settings: a report sent to /api/agent/reports carries every breaker\'s',
    );
    stream.socket.close();
  });

  it("opens for a service account's token only", async () => {
    const token = await serviceToken('stream-who');
    expect(await streamUpgradeStatus(spec.api.baseUrl, {})).toBe(401);
    expect(await streamUpgradeStatus(spec.api.baseUrl, { authorization: 'Bearer not-a-token' })).toBe(401);
    const personal = await post('/api/tokens', { name: 'mine-stream', expiresInDays: 1 });
    const personalToken = ((await personal.json()) as { token: string }).token;
    expect(await streamUpgradeStatus(spec.api.baseUrl, { authorization: `Bearer ${personalToken}` })).toBe(403);
    expect(await streamUpgradeStatus(spec.api.baseUrl, { cookie: spec.admin })).toBe(403);
    expect(await streamUpgradeStatus(spec.api.baseUrl, { authorization: `Bearer ${token}`, origin: 'https://elsewhere.example' })).toBe(
      101,
    );
  });

  it(`closes a stream with more than ${AGENT_PROTOCOL_LIMITS.reportsInFlight} reports waiting for their answers`, async () => {
    const token = await serviceToken('stream-flood');
    const stream = await openAgentStream(spec.api.baseUrl, token);
    const frame = JSON.stringify(report('stream-flood', 'f-1', [breaker('x')]));
    for (let i = 0; i < 20; i++) stream.socket.send(frame);
    expect(await stream.closed).toEqual({
      code: AGENT_STREAM_CLOSE.tooMany,
      reason: `More than ${AGENT_PROTOCOL_LIMITS.reportsInFlight} reports waiting for their answers`,
    });
  });

  it('takes nothing more of a stream once it closed, not even the reports it sent before, not yet read', async () => {
    const token = await serviceToken('stream-gone');
    const stream = await openAgentStream(spec.api.baseUrl, token);
    // the replica reads what it received every 100 ms: the report comes, the stream goes, before the next read
    stream.socket.send(JSON.stringify(report('stream-gone', 'g-1', [breaker('never')])));
    stream.socket.terminate();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await get<unknown[]>('/api/circuit-breakers?source=agent&service=stream-gone')).toEqual([]);
  });

  it('closes on every replica when its token is revoked', async () => {
    const account = await post('/api/service-accounts', { name: 'stream-revoked' });
    const { id } = (await account.json()) as { id: string };
    const made = (await (await post(`/api/service-accounts/${id}/tokens`, { name: 'agent', expiresInDays: 30 })).json()) as {
      id: string;
      token: string;
    };
    const streams = [await openAgentStream(spec.api.baseUrl, made.token), await openAgentStream(spec.second.baseUrl, made.token)];
    expect((await streams[1]!.send(report('stream-revoked', 'r-1', [breaker('x')]))).status).toBe(200);
    const revoked = await spec.api.call(`/api/service-accounts/${id}/tokens/${made.id}`, { method: 'DELETE', cookie: spec.admin });
    expect(revoked.status).toBe(204);
    for (const stream of streams) expect(await stream.closed).toEqual({ code: WS_SIGNED_OUT_CLOSE, reason: 'Token revoked' });
    expect(await streamUpgradeStatus(spec.second.baseUrl, { authorization: `Bearer ${made.token}` })).toBe(401);
    expect(await get<unknown[]>('/api/circuit-breakers?source=agent&service=stream-revoked')).toHaveLength(1);
  });
});
