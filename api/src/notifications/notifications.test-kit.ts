import type { BreakerConfigView, ChannelView, DeliveryPage, DeliveryView, RuleView } from '@cbh/contracts';
import { replicaPairForThisFile, type ReplicaPair } from '../../test/replica-pair';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';
import { simpleBreaker } from '../../test/breaker-bodies';

export const SECRET = 'whsec-the-receiver-and-the-hub-share';

/** A response's JSON body, typed as the caller expects it. */
export const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;

/**
 * The API of a notifications spec file: two replicas on one database with an SMTP server, and a webhook receiver
 * that signs with SECRET, started before its first test and stopped after its last. Channels may call loopback
 * 127.0.0.1 only, where the receivers listen: 127.0.0.2 stands for a private address outside the allowed ranges.
 * The helpers call the first replica as the admin unless told otherwise.
 */
export function notificationsApiForThisFile() {
  const spec = replicaPairForThisFile({ ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' }) as ReplicaPair & { receiver: WebhookReceiver };
  beforeAll(async () => {
    spec.receiver = await startWebhookReceiver({ secret: SECRET });
  });
  afterAll(async () => {
    await spec.receiver?.stop();
  });

  const post = (path: string, body: unknown, replica = spec.api, cookie = spec.admin) =>
    replica.call(path, { method: 'POST', body, cookie });

  async function webhookChannel(name: string, url = spec.receiver.url, secret: string | undefined = SECRET): Promise<ChannelView> {
    const response = await post('/api/notification-channels', { name, type: 'webhook', url, ...(secret ? { secret } : {}) });
    expect(response.status).toBe(201);
    return json<ChannelView>(response);
  }

  async function rule(body: Record<string, unknown>): Promise<RuleView> {
    const response = await post('/api/notification-rules', body);
    expect(response.status).toBe(201);
    return json<RuleView>(response);
  }

  async function deliveries(query = ''): Promise<DeliveryView[]> {
    return (await json<DeliveryPage>(spec.api.call(`/api/notification-deliveries?limit=200${query}`, { cookie: spec.admin }))).items;
  }

  /** A breaker of its own for each test, so their events do not mix. */
  async function freshBreaker(name: string): Promise<BreakerConfigView> {
    const response = await post('/api/circuit-breakers', simpleBreaker(name));
    expect(response.status).toBe(201);
    return json<BreakerConfigView>(response);
  }

  return {
    spec,
    post,
    webhookChannel,
    rule,
    deliveries,
    freshBreaker,
    forceOpen: (id: number, replica = spec.api) => post(`/api/circuit-breakers/${id}/force-open`, undefined, replica),
    reset: (id: number, replica = spec.api) => post(`/api/circuit-breakers/${id}/reset`, undefined, replica),
  };
}
