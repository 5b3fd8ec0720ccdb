import {
  SERVICE_EVENTS_PER_MINUTE,
  type AgentBreakerReport,
  type AgentReport,
  type AgentReportReply,
  type AgentTransition,
  type BreakerConfigView,
  type RuleView,
  type ServiceAccountView,
} from '@cbh/contracts';
import { eventually, twoReplicasForThisFile, withRoomInTheMinute } from '../../../test/test-api';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver';
import { describeNotification } from '../../notifications/senders/messages';
import { simpleBreaker } from '../../../test/breaker-bodies';

// two replicas on one database: the limits and caps are the cluster's
const spec = twoReplicasForThisFile({ TOKEN_RATE_LIMIT: '20', AGENT_REPORT_RATE_LIMIT: '30', ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });
let receiver: WebhookReceiver;
let channelId: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  const channel = await post('/api/notification-channels', { name: 'moves hook', type: 'webhook', url: receiver.url });
  channelId = ((await channel.json()) as { id: string }).id;
});
afterAll(async () => {
  await receiver?.stop();
});

const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const post = (path: string, body?: unknown) => spec.api.call(path, { method: 'POST', body, cookie: spec.admin });

async function serviceAccount(service: string): Promise<{ id: string; token: () => Promise<string> }> {
  const account = await json<ServiceAccountView>(post('/api/service-accounts', { name: service }));
  return {
    id: account.id,
    token: async () =>
      (
        (await (
          await post(`/api/service-accounts/${account.id}/tokens`, { name: `agent-${Math.random()}`, expiresInDays: 30 })
        ).json()) as { token: string }
      ).token,
  };
}

const sendReport = (token: string, report: unknown, replica = spec.api) =>
  fetch(`${replica.baseUrl}/api/agent/reports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(report),
  });

function breaker(name: string, transitions: AgentTransition[] = []): AgentBreakerReport {
  return {
    name,
    library: 'opossum',
    type: 'error-percentage',
    settings: { errorThresholdPercentage: 50 },
    state: transitions.at(-1)?.to ?? 'CLOSED',
    override: 'none',
    window: {
      successes: 0,
      failures: 0,
      timeouts: 0,
      rejections: 0,
      latencyHistogram: { boundsMs: [10], counts: [0, 0] },
      longestCallMs: 0,
    },
    transitions,
  };
}

const report = (service: string, instance: string, breakers: AgentBreakerReport[]): AgentReport => ({
  version: 1,
  service,
  instance,
  sentAt: new Date().toISOString(),
  breakers,
});

/** Moves opening and closing the breaker in turn, the first at `from` (ms ago), each `everyMs` later. */
const moves = (count: number, fromMsAgo: number, everyMs: number): AgentTransition[] =>
  Array.from({ length: count }, (_, i) => ({
    from: i % 2 === 0 ? 'CLOSED' : 'OPEN',
    to: i % 2 === 0 ? 'OPEN' : 'CLOSED',
    at: new Date(Date.now() - fromMsAgo + i * everyMs).toISOString(),
    reason: `move ${i}`,
  }));

async function ruleFor(name: string, body: Record<string, unknown>): Promise<RuleView> {
  const response = await post('/api/notification-rules', { name, channelIds: [channelId], ...body });
  expect(response.status).toBe(201);
  return json<RuleView>(response);
}

const breakerId = async (service: string, name: string) =>
  (await json<BreakerConfigView[]>(spec.api.call(`/api/circuit-breakers?source=agent&service=${service}`, { cookie: spec.admin }))).find(
    (item) => item.name === name,
  )!.id;
const rows = <T>(sql: string, params: unknown[] = []) => spec.api.sql(sql, params) as Promise<T[]>;
const allFannedOut = () =>
  eventually(async () => (await rows('SELECT 1 FROM notification_events WHERE dispatched_at IS NULL')).length === 0, 10_000);
/** The deliveries a rule made and did not hold back, by event type. */
const sent = async (ruleId: string) =>
  (
    await rows<{ event_type: string }>(
      "SELECT event_type FROM notification_deliveries WHERE rule_id = $1 AND status IN ('pending', 'delivering', 'delivered') ORDER BY event_type",
      [ruleId],
    )
  ).map((row) => row.event_type);

describe("a service account's reports", () => {
  it('are limited per account, all its tokens together, on every replica', async () => {
    await withRoomInTheMinute(20_000);
    const account = await serviceAccount('tokens-two');
    const [first, other] = [await account.token(), await account.token()];
    for (let i = 0; i < 20; i++) expect((await sendReport(first, report('tokens-two', 'a', []))).status).toBe(200);
    // the first token used its own minute; the account has ten reports left, for any token, on any replica
    expect((await sendReport(first, report('tokens-two', 'a', []))).status).toBe(429);
    const counted = async () =>
      (await rows<{ reports: number }>('SELECT reports FROM agent_report_usage WHERE account_id = $1', [account.id]))[0]?.reports;
    expect(await eventually(async () => (await counted()) === 20)).toBe(true);
    for (let i = 0; i < 10; i++) expect((await sendReport(other, report('tokens-two', 'b', []), spec.second)).status).toBe(200);
    const limited = await sendReport(other, report('tokens-two', 'b', []), spec.second);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).message).toMatch(
      /^Service account tokens-two sent 30 reports this minute, the most one account may with all its tokens \(AGENT_REPORT_RATE_LIMIT\); try again in \d+ s$/,
    );
  });

  it("journal at most a service's moves of a minute, and say how many were left out", async () => {
    await withRoomInTheMinute(20_000);
    const token = await (await serviceAccount('journalled')).token();
    const replies: AgentReportReply[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await sendReport(
        token,
        report('journalled', `j-${i}`, [breaker('flaky', moves(100, 50_000, 400))]),
        i % 2 ? spec.second : spec.api,
      );
      expect(response.status).toBe(200);
      replies.push((await response.json()) as AgentReportReply);
    }
    const id = await breakerId('journalled', 'flaky');
    expect((await rows('SELECT 1 FROM breaker_transitions WHERE config_id = $1', [id])).length).toBe(600);
    expect(replies.slice(0, 6).every((reply) => reply.notices === undefined)).toBe(true);
    expect(replies[6]!.notices).toEqual([
      'service journalled reported more than 600 moves this minute, the most the journal takes from one service: 100 moves left out',
    ]);
  });

  it("written together in one statement, share the service's moves of the minute in the order they came", async () => {
    await withRoomInTheMinute(20_000);
    const token = await (await serviceAccount('batched')).token();
    const instances = Array.from({ length: 7 }, (_, i) => `b-${i}`);
    // each instance admitted first, so that the reports below go straight to being written; admitted together, as a
    // fleet's instances report, so that the reports come steadily and a write waits its window for others to join it
    // (one after the other, on a fast machine each report was written before the next arrived: seven statements)
    const admitted = await Promise.all(instances.map((instance) => sendReport(token, report('batched', instance, [breaker('burst')]))));
    expect(admitted.map((response) => response.status)).toEqual(Array(7).fill(200));
    const responses = await Promise.all(
      instances.map((instance) => sendReport(token, report('batched', instance, [breaker('burst', moves(100, 50_000, 400))]))),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(7).fill(200));
    const replies = await Promise.all(responses.map((response) => response.json() as Promise<AgentReportReply>));
    const id = await breakerId('batched', 'burst');
    // reports that came within the window of each other were written by one transaction
    const [written] = await rows<{ writers: number }>(
      'SELECT count(DISTINCT written_by)::int AS writers FROM breaker_instances WHERE config_id = $1',
      [id],
    );
    expect(written?.writers).toBeLessThan(7);
    expect((await rows('SELECT 1 FROM breaker_transitions WHERE config_id = $1', [id])).length).toBe(600);
    const leftOut = replies
      .flatMap((reply) => reply.notices ?? [])
      .map((notice) => Number(/: (\d+) moves left out$/.exec(notice)?.[1]))
      .reduce((sum, n) => sum + n, 0);
    expect(leftOut).toBe(100);
  });
});

describe("the notifications of agents' moves", () => {
  it('raise no event for a back-dated move, and judge a rule’s interval on when the hub took the event', async () => {
    const token = await (await serviceAccount('dated')).token();
    const rule = await ruleFor('dated carrier', {
      events: ['breaker.opened', 'breaker.recovered'],
      breakers: ['agent:dated/carrier'],
      minIntervalMinutes: 1,
    });
    // five reports of twenty moves each from the last day, ten minutes apart: journalled, and no event each
    for (let i = 0; i < 5; i++) {
      const dated = moves(20, 86_000_000 - i * 12_000_000, 600_000);
      expect((await sendReport(token, report('dated', 'd-1', [breaker('carrier', dated)]))).status).toBe(200);
    }
    // then five fresh moves over the last five minutes, more than a minute apart, in five reports (as a backlog comes
    // in): each an event, but one rule sends each kind once a minute of the hub's, whatever times the agent wrote
    for (const move of moves(5, 280_000, 66_000)) {
      expect((await sendReport(token, report('dated', 'd-1', [breaker('carrier', [move])]))).status).toBe(200);
    }
    const id = await breakerId('dated', 'carrier');
    expect((await rows('SELECT 1 FROM breaker_transitions WHERE config_id = $1', [id])).length).toBe(105);
    expect((await rows('SELECT 1 FROM notification_events WHERE subject_id = $1', [id])).length).toBe(5);
    expect(await allFannedOut()).toBe(true);
    expect(await sent(rule.id)).toEqual(['breaker.opened', 'breaker.recovered']);
    await receiver.waitFor(2, 10_000);
  });

  it('are capped per service and minute, the overflow one breaker.events_capped that every channel can say', async () => {
    const token = await (await serviceAccount('stormy')).token();
    const rule = await ruleFor('stormy', { events: ['breaker.opened'], breakers: ['agent:stormy/s-0'], minIntervalMinutes: 0 });
    const opened = (name: string) => breaker(name, moves(1, 1000, 0));
    const storm = Array.from({ length: SERVICE_EVENTS_PER_MINUTE + 5 }, (_, i) => opened(`s-${i}`));
    const before = receiver.received.length;
    expect((await sendReport(token, report('stormy', 'st-1', storm))).status).toBe(200);
    const events = await rows<{ type: string }>(
      "SELECT type FROM notification_events WHERE data->'breaker'->>'service' = 'stormy' ORDER BY id",
    );
    expect(events.map((event) => event.type)).toEqual([
      ...Array(SERVICE_EVENTS_PER_MINUTE).fill('breaker.opened'),
      'breaker.events_capped',
    ]);
    expect(await allFannedOut()).toBe(true);
    // the rule naming one of the service's breakers hears of that breaker's opening and of the cap
    expect(await sent(rule.id)).toEqual(['breaker.events_capped', 'breaker.opened']);
    const received = (await receiver.waitFor(before + 2, 10_000)).slice(before);
    const capped = received.find((webhook) => webhook.body.type === 'breaker.events_capped')!;
    expect(capped.headers['x-cbh-event']).toBe('breaker.events_capped');
    expect(capped.body.data).toMatchObject({
      // the breaker whose move was the first past the cap
      breaker: { name: expect.stringMatching(/^s-\d+$/), source: 'agent', service: 'stormy' },
      instance: 'st-1',
      limit: SERVICE_EVENTS_PER_MINUTE,
      minute: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/),
      url: expect.any(String),
    });
    const message = describeNotification({
      deliveryId: String(capped.body.id),
      type: 'breaker.events_capped',
      occurredAt: String(capped.body.occurredAt),
      data: capped.body.data as never,
    });
    expect(message.title).toBe(`Service stormy raised more than ${SERVICE_EVENTS_PER_MINUTE} breaker events this minute`);
  });

  it("tell an agent's breaker from the hub's breaker of the same name", async () => {
    const hub = await post('/api/circuit-breakers', simpleBreaker('lookalike'));
    expect(hub.status).toBe(201);
    const hubId = ((await hub.json()) as { id: number }).id;
    const hubs = await ruleFor('the hub lookalike', { events: ['breaker.opened'], breakers: ['lookalike'], minIntervalMinutes: 0 });
    const agents = await ruleFor('the agent lookalike', {
      events: ['breaker.opened'],
      breakers: ['agent:mimic/lookalike'],
      minIntervalMinutes: 0,
    });
    const token = await (await serviceAccount('mimic')).token();
    expect((await sendReport(token, report('mimic', 'm-1', [breaker('lookalike', moves(1, 1000, 0))]))).status).toBe(200);
    expect(await allFannedOut()).toBe(true);
    expect(await sent(hubs.id)).toEqual([]);
    expect(await sent(agents.id)).toEqual(['breaker.opened']);
    // the hub's own breaker opening is the plain name's
    expect((await post(`/api/circuit-breakers/${hubId}/force-open`)).status).toBe(200);
    expect(await eventually(async () => (await sent(hubs.id)).length === 1, 10_000)).toBe(true);
    expect(await sent(agents.id)).toEqual(['breaker.opened']);
  });
});
