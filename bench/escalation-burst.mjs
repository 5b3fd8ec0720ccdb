// The escalation case of bench:notify (notification-latency.mjs runs it on its two replicas): GROUPS breakers are
// forced open at once (bulk requests to both replicas), routed by rules to a two-step escalation policy whose steps
// post to the bench's webhook receiver, so GROUPS alert groups open and fire step 1 together. Once every step 1 has
// arrived, the bench sets every group's next_step_at to one instant 2 s ahead (one UPDATE: as if every group had
// opened in the same millisecond — the policy's own wait is 10 minutes, so no step 2 falls due before it), and the
// escalation runners of both replicas find all GROUPS step 2s due together. Each step is timed from its due time —
// step 1 from the group's opening (its first next_step_at is its opened_at), step 2 from that instant — to the first
// arrival of its webhook at the receiver (and, alongside, to the delivery log's delivered_at). "Each step delivered
// once" is counted three ways: rows per (group, step) in notification_deliveries, webhooks the receiver got per
// (group, step) and per delivery id, and step entries per (group, step) on the groups' timelines.
import { setTimeout as sleep } from 'node:timers/promises';
import { adminCall } from './api-process.mjs';

/** Bulk requests take at most this many ids (BULK_MAX_IDS); a rule's breaker filter names at most this many. */
const BULK_MAX_IDS = 500;
const RULE_MAX_BREAKERS = 100;
/** A step's wait in the policy: long, so that only the bench's UPDATE makes step 2 due during the case. */
const WAIT_MINUTES = 10;
/** How far ahead of the UPDATE's commit the common due instant lies. */
const DUE_AHEAD_S = 2;
/** How long each step may take to arrive everywhere, and how long the receiver keeps listening for late copies. */
const WAIT_MS = 60_000;
const SETTLE_MS = 2000;

const rank = (sorted, p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const ms = (value) => `${Number.isFinite(value) ? value.toFixed(0) : '—'} ms`;
const key = (group, step) => `${group}/${step}`;

/** p50/p95/p99/max of `values` (ms). */
function spread(values) {
  const sorted = [...values].sort((x, y) => x - y);
  return {
    count: sorted.length,
    p50: rank(sorted, 50),
    p95: rank(sorted, 95),
    p99: rank(sorted, 99),
    max: rank(sorted, 100),
    min: sorted[0] ?? NaN,
  };
}

/**
 * Runs the case on replicas `a` and `b` (from startBenchApi) with `db` (a pg pool on their database) and `receiver`
 * (notification-latency.mjs's, whose arrivals carry `wall`, `group`, `step`, `breaker` and `id`). Prints its figures
 * and answers them for the caller's BENCH lines.
 */
export async function escalationBurst({ a, b, db, receiver, secret, groups: GROUPS }) {
  const started = performance.now();
  // the pager: a webhook channel to the receiver, a two-step policy posting to it, GROUPS breakers and the rules
  // routing their openings to the policy (a rule's breaker filter names at most 100)
  const channel = await adminCall(a, 'POST', '/api/notification-channels', {
    name: 'Bench pager',
    type: 'webhook',
    url: receiver.url,
    secret,
  });
  const policy = await adminCall(a, 'POST', '/api/escalation-policies', {
    name: 'Bench escalation',
    steps: [
      { notify: { channels: [channel.id] }, waitMinutes: WAIT_MINUTES },
      { notify: { channels: [channel.id] }, waitMinutes: WAIT_MINUTES },
    ],
    repeat: 0,
  });
  const breakers = [];
  for (let made = 0; made < GROUPS; made += 20) {
    const batch = Array.from({ length: Math.min(20, GROUPS - made) }, (_, index) =>
      adminCall(a, 'POST', '/api/circuit-breakers', {
        name: `Escalation bench ${String(made + index + 1).padStart(4, '0')}`,
        type: 'simple',
        failureThreshold: 5,
        timeout: 60_000,
        recoveryTime: 30_000,
        successThreshold: 2,
      }),
    );
    breakers.push(...(await Promise.all(batch)));
  }
  for (let named = 0; named < GROUPS; named += RULE_MAX_BREAKERS) {
    await adminCall(a, 'POST', '/api/notification-rules', {
      name: `Bench pages ${String(named / RULE_MAX_BREAKERS + 1).padStart(2, '0')}`,
      events: ['breaker.opened'],
      breakers: breakers.slice(named, named + RULE_MAX_BREAKERS).map((breaker) => breaker.name),
      channelIds: [],
      escalationPolicyId: policy.id,
    });
  }
  const ours = new Set(breakers.map((breaker) => breaker.id));
  const arrivalsOf = (step) => receiver.arrivals.filter((arrival) => arrival.step === step && ours.has(arrival.breaker));
  const waitForStep = async (step) => {
    const deadline = performance.now() + WAIT_MS;
    while (performance.now() < deadline) {
      if (new Set(arrivalsOf(step).map((arrival) => arrival.group)).size >= GROUPS) return true;
      await sleep(50);
    }
    return false;
  };
  console.log(
    `${GROUPS} breakers, ${Math.ceil(GROUPS / RULE_MAX_BREAKERS)} rules paging to one two-step policy, made in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  // step 1: every breaker forced open at once, the bulk requests split between the replicas
  const chunks = [];
  for (let at = 0; at < breakers.length; at += BULK_MAX_IDS)
    chunks.push(breakers.slice(at, at + BULK_MAX_IDS).map((breaker) => breaker.id));
  const openedFrom = performance.now();
  const answers = await Promise.all(
    chunks.map((ids, index) => adminCall(index % 2 ? b : a, 'POST', '/api/circuit-breakers/bulk', { action: 'force-open', ids })),
  );
  const refused = answers.flatMap((answer) => answer.results.filter((outcome) => !outcome.ok));
  if (refused.length > 0) throw new Error(`${refused.length} breakers not forced open: ${refused[0].message}`);
  console.log(
    `${GROUPS} breakers forced open in ${chunks.length} bulk requests to both replicas: answered in ${ms(performance.now() - openedFrom)}`,
  );
  const step1Complete = await waitForStep(1);
  console.log(
    `step 1 ${step1Complete ? 'arrived for every group' : `arrived for ${new Set(arrivalsOf(1).map((x) => x.group)).size} groups only`} ${ms(performance.now() - openedFrom)} after the bulk requests were sent`,
  );

  const { rows: groupRows } = await db.query(
    `SELECT id, subject_id, opened_at, next_step, next_step_at, state FROM alert_groups
     WHERE subject_kind = 'breaker' AND subject_id = ANY($1::int[]) ORDER BY id`,
    [[...ours]],
  );
  const groupIds = groupRows.map((row) => row.id);
  const openedAt = new Map(groupRows.map((row) => [row.id, row.opened_at.getTime()]));
  const openings = groupRows.map((row) => row.opened_at.getTime());
  console.log(
    `${groupRows.length} alert groups opened (${groupRows.filter((row) => row.next_step === 1).length} with step 1 fired), their openings within ${ms(Math.max(...openings) - Math.min(...openings))} of each other`,
  );

  // step 2: every group's next step due at one instant, a little ahead so that the UPDATE has committed before it
  const { rows: aligned } = await db.query(
    `UPDATE alert_groups SET next_step_at = now() + make_interval(secs => $2)
     WHERE id = ANY($1::int[]) AND next_step = 1 AND state = 'firing' RETURNING next_step_at`,
    [groupIds, DUE_AHEAD_S],
  );
  const due2 = aligned[0]?.next_step_at.getTime() ?? NaN;
  console.log(`step 2 of ${aligned.length} groups set due at one instant, ${DUE_AHEAD_S} s ahead`);
  const step2Complete = await waitForStep(2);
  await sleep(SETTLE_MS);
  console.log(
    `step 2 ${step2Complete ? 'arrived for every group' : `arrived for ${new Set(arrivalsOf(2).map((x) => x.group)).size} groups only`} ${ms(Date.now() - due2 - SETTLE_MS)} after its due time`,
  );

  // what the hub logged, and what its timelines say
  const { rows: logRows } = await db.query(
    `SELECT alert_group_id AS group, step, count(*)::int AS rows, count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
            max(attempts)::int AS attempts, min(created_at) AS created_at, min(delivered_at) AS delivered_at
     FROM notification_deliveries WHERE alert_group_id = ANY($1::int[]) GROUP BY 1, 2`,
    [groupIds],
  );
  const { rows: entryRows } = await db.query(
    `SELECT group_id AS group, step, count(*)::int AS entries FROM alert_group_entries
     WHERE group_id = ANY($1::int[]) AND kind = 'step' GROUP BY 1, 2`,
    [groupIds],
  );
  const { rows: statusRows } = await db.query(
    `SELECT status, count(*)::int AS count FROM notification_deliveries WHERE alert_group_id = ANY($1::int[]) GROUP BY 1 ORDER BY 1`,
    [groupIds],
  );
  // the groups as the API lists them, on replica B
  let listed = 0;
  for (let before = null; ;) {
    const page = await adminCall(b, 'GET', `/api/alert-groups?state=firing&limit=200${before ? `&before=${before}` : ''}`);
    listed += page.items.filter((item) => ours.has(item.subject?.id) && item.subject?.kind === 'breaker').length;
    if (!page.nextBefore) break;
    before = page.nextBefore;
  }

  const expected = groupIds.flatMap((id) => [key(id, 1), key(id, 2)]);
  const log = new Map(logRows.map((row) => [key(row.group, row.step), row]));
  const entries = new Map(entryRows.map((row) => [key(row.group, row.step), row.entries]));
  const firstArrival = new Map();
  const copies = new Map();
  const copiesOfId = new Map();
  for (const arrival of receiver.arrivals) {
    if (!ours.has(arrival.breaker) || arrival.step === undefined) continue;
    const k = key(arrival.group, arrival.step);
    if (!firstArrival.has(k) || arrival.wall < firstArrival.get(k)) firstArrival.set(k, arrival.wall);
    copies.set(k, (copies.get(k) ?? 0) + 1);
    copiesOfId.set(arrival.id, (copiesOfId.get(arrival.id) ?? 0) + 1);
  }
  const extra = (counts) => [...counts.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0);
  const duplicates = {
    log: logRows.reduce((sum, row) => sum + Math.max(0, row.rows - 1), 0),
    receiver: extra(copies),
    deliveryIds: extra(copiesOfId),
    timeline: extra(entries),
  };
  const delivered = expected.filter((k) => log.get(k)?.delivered === 1 && firstArrival.has(k)).length;
  const dueOf = (k) => {
    const [group, step] = k.split('/').map(Number);
    return step === 1 ? openedAt.get(group) : due2;
  };
  const latencies = (step, at) =>
    spread(expected.filter((k) => k.endsWith(`/${step}`) && at(k) !== undefined).map((k) => at(k) - dueOf(k)));
  const received = [1, 2].map((step) => latencies(step, (k) => firstArrival.get(k)));
  const logged = [1, 2].map((step) => latencies(step, (k) => log.get(k)?.delivered_at?.getTime()));
  // where the time goes: from due to the step's claim (its deliveries' created_at, the claim's transaction start),
  // and from the claim to the webhook's arrival (the outbox's queue and the POST)
  const claimed = [1, 2].map((step) => latencies(step, (k) => log.get(k)?.created_at?.getTime()));
  const queued = [1, 2].map((step) =>
    spread(
      expected
        .filter((k) => k.endsWith(`/${step}`) && firstArrival.has(k) && log.has(k))
        .map((k) => firstArrival.get(k) - log.get(k).created_at.getTime()),
    ),
  );
  const retried = logRows.filter((row) => row.attempts > 1).length;

  const line = (m) => `p50 ${ms(m.p50)}, p95 ${ms(m.p95)}, p99 ${ms(m.p99)}, max ${ms(m.max)} (${m.count})`;
  console.log(`step 1, due at its group's opening → webhook received: ${line(received[0])}; → delivered_at logged: ${line(logged[0])}`);
  console.log(
    `step 2, ${aligned.length} due at one instant → webhook received: ${line(received[1])}; → delivered_at logged: ${line(logged[1])}`,
  );
  for (const step of [1, 2]) {
    const [c, q] = [claimed[step - 1], queued[step - 1]];
    console.log(
      `step ${step}: due → claimed by a runner p50 ${ms(c.p50)}, p99 ${ms(c.p99)} (first ${ms(c.min)}, last ${ms(c.max)}); claimed → webhook received p50 ${ms(q.p50)}, p99 ${ms(q.p99)}`,
    );
  }
  console.log(
    `each step once: ${delivered} of ${expected.length} (group, step) delivered once; duplicates — delivery log rows ${duplicates.log}, webhooks at the receiver ${duplicates.receiver}, one delivery id twice ${duplicates.deliveryIds}, timeline step entries ${duplicates.timeline}; ${retried} tried more than once`,
  );
  console.log(
    `the pager's delivery log: ${statusRows.map((row) => `${row.count} ${row.status}`).join(', ')}; firing groups listed by replica B's GET /api/alert-groups: ${listed}; whole case ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return {
    groups: groupRows.length,
    expected: expected.length,
    delivered,
    duplicates: duplicates.log + duplicates.receiver + duplicates.deliveryIds + duplicates.timeline,
    step1: received[0],
    step2: received[1],
  };
}
