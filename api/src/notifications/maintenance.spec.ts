import { mutingWindow } from './maintenance';
import type { OutboxEvent } from './rule-matching';

const at = new Date('2026-11-28T12:00:00Z');
const window = (breakers: string[]) => ({
  name: 'deploy',
  startsAt: new Date('2026-11-28T11:00:00Z'),
  endsAt: new Date('2026-11-28T13:00:00Z'),
  repeatWeekly: false,
  breakers,
  domains: [],
});
/** A breaker's opening as the outbox holds it: the hub's own breaker, or one an agent of `service` reports. */
const opened = (name: string, service?: string): OutboxEvent => ({
  id: '1',
  type: 'breaker.opened',
  subjectKind: 'breaker',
  subjectId: 7,
  subjectName: name,
  occurredAt: at,
  receivedAt: at,
  data: { breaker: service ? { name, source: 'agent', service } : { name, source: 'hub' } },
  ruleId: null,
});

it("mutes the hub's own breaker by its plain name, never another service's breaker of the same name", () => {
  const hubWindow = window(['payments']);
  expect(mutingWindow([hubWindow], opened('payments'))).toBe(hubWindow);
  expect(mutingWindow([hubWindow], opened('Payments', 'shop'))).toBeUndefined();
});

it("mutes an agent's breaker named as agent:<service>/<name>, of that service only", () => {
  const agentWindow = window(['agent:shop/payments']);
  expect(mutingWindow([agentWindow], opened('payments', 'shop'))).toBe(agentWindow);
  expect(mutingWindow([agentWindow], opened('payments', 'billing'))).toBeUndefined();
  expect(mutingWindow([agentWindow], opened('payments'))).toBeUndefined();
});
