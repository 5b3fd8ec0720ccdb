import type { ChannelItem, ChannelView, ConfigDocument, TestDeliveryView } from '@cbh/contracts';
import { apiForThisFile, type TestApi } from '../../test/test-api';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';
import { documentRoutes } from './document.test-kit';

export const SECRET = 'whsec-the-receiver-and-the-hub-share';
/** What a channel's URL carries that no export, answer or audit entry may show. */
export const LEAK = 'do-not-leak';

/**
 * The API of a notification-config spec file, with a webhook receiver on loopback (which ALLOW_PRIVATE_TARGETS lets
 * channels call) that checks signatures with SECRET, and the helpers its tests share; the admin calls unless told.
 */
export function notificationConfigApiForThisFile() {
  const spec = apiForThisFile({ ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' }) as {
    readonly api: TestApi;
    readonly admin: string;
    receiver: WebhookReceiver;
  };
  beforeAll(async () => {
    spec.receiver = await startWebhookReceiver({ secret: SECRET });
  });
  afterAll(async () => {
    await spec.receiver?.stop();
  });

  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await spec.api.call(path, { method: 'POST', body, cookie: spec.admin });
    const answer = await response.json();
    // the answer shown when the status is not a success
    expect({ path, success: response.ok, answer }).toMatchObject({ path, success: true });
    return answer as T;
  };

  async function channelNamed(name: string): Promise<ChannelView> {
    const channels = (await (await spec.api.call('/api/notification-channels', { cookie: spec.admin })).json()) as ChannelView[];
    return channels.find((channel) => channel.name === name)!;
  }

  /** "Send test" on a channel, and the request the receiver took. */
  async function testDelivery(name: string) {
    const before = spec.receiver.received.length;
    const outcome = await post<TestDeliveryView>(`/api/notification-channels/${(await channelNamed(name)).id}/test`, undefined);
    expect(outcome).toMatchObject({ status: 'delivered', statusCode: 200 });
    const [request] = (await spec.receiver.waitFor(before + 1)).slice(before);
    return request!;
  }

  /**
   * Three channels (a signed webhook whose URL carries LEAK, a Slack channel, e-mail), the rule "Breakers open" to
   * the webhook and the e-mail, and the weekly window "Friday deploys": the items the export is read against.
   */
  async function addNotificationItems() {
    const hook = await post<ChannelView>('/api/notification-channels', {
      name: 'Ops hook',
      type: 'webhook',
      url: `${spec.receiver.url}?token=${LEAK}`,
      secret: SECRET,
    });
    // its name comes out as the same variable as Ops hook's: told apart by _2
    await post('/api/notification-channels', { name: 'Ops-Hook', type: 'slack', url: `${spec.receiver.url}?slack=${LEAK}` });
    const mail = await post<ChannelView>('/api/notification-channels', {
      name: 'On-call mail',
      type: 'email',
      recipients: ['oncall@example.com', 'lead@example.com'],
    });
    await post('/api/notification-rules', {
      name: 'Breakers open',
      events: ['breaker.recovered', 'breaker.opened'],
      channelIds: [hook.id, mail.id],
      breakers: ['Payment Gateway'],
      minIntervalMinutes: 10,
    });
    await post('/api/maintenance-windows', {
      name: 'Friday deploys',
      startsAt: '2026-01-02T16:00:00+01:00',
      endsAt: '2026-01-02T18:00:00+01:00',
      repeatWeekly: true,
      breakers: ['Search API'],
    });
  }

  return { spec, ...documentRoutes(spec), post, channelNamed, testDelivery, addNotificationItems };
}

/** The audit entries added between two counts, by action. */
export const auditAdded = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after)
      .filter(([action, n]) => n !== (before[action] ?? 0))
      .map(([action, n]) => [action, n - (before[action] ?? 0)]),
  );

/** The document with one of its channels changed in place. */
export const withChannel = (document: ConfigDocument, name: string, change: (channel: ChannelItem) => void) => {
  change(document.channels!.find((channel) => channel.name === name)!);
  return document;
};
