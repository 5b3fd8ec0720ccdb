import { BadRequestException } from '@nestjs/common';
import { agentReportSchema, AGENT_PROTOCOL_LIMITS } from '@cbh/contracts';
import { randomFrom } from '../../../test/seeded-random';
import { readReport, readsQuickly } from './report-reading';

/** A report as the agent sends one: settings, a move, a histogram, faults. */
const report = () => ({
  version: 1,
  service: 'checkout',
  instance: 'checkout-7f9c-1',
  sentAt: '2026-12-04T10:00:00.123Z',
  periodMs: 1000,
  id: 'r-42',
  breakers: [
    {
      name: 'payments',
      library: 'opossum',
      type: 'error-percentage',
      settings: { errorThresholdPercentage: 50, timeout: 3000, name: 'payments', enabled: true },
      state: 'OPEN',
      override: 'none',
      window: {
        successes: 20,
        failures: 3,
        timeouts: 1,
        rejections: 0,
        slowCalls: 2,
        latencyHistogram: { boundsMs: [1, 5, 10, 50.5], counts: [0, 12, 8, 3, 1] },
        longestCallMs: 72.25,
      },
      transitions: [{ from: 'CLOSED', to: 'OPEN', at: '2026-12-04T09:59:59.5+01:00', reason: 'errors over 50 %' }],
    },
    {
      name: 'Inventory',
      library: 'cockatiel',
      type: 'consecutive',
      state: 'CLOSED',
      override: 'forced-open',
      window: { successes: 0, failures: 0, timeouts: 0, rejections: 0, latencyHistogram: { boundsMs: [], counts: [0] }, longestCallMs: 0 },
      transitions: [],
    },
  ],
  faults: { allowed: true, active: ['f-1'], refused: [{ id: 'f-2', reason: 'not allowed here' }] },
});

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Every place in a report: [the object or list holding it, its key]. */
function places(value: unknown, into: [Record<string, unknown>, string][] = []): [Record<string, unknown>, string][] {
  if (value === null || typeof value !== 'object') return into;
  for (const key of Object.keys(value)) {
    into.push([value as Record<string, unknown>, key]);
    places((value as Record<string, unknown>)[key], into);
  }
  return into;
}

const REPLACEMENTS: unknown[] = [
  null,
  'x',
  '',
  '  padded  ',
  'é'.repeat(201),
  '😀'.repeat(150),
  '😀'.repeat(201),
  -1,
  0,
  1.5,
  1e10,
  86_400_001,
  true,
  [],
  {},
  [3, 2, 1],
  'CLOSED',
  'opossum',
  '2026-12-04T10:00:00Z',
  '2026-02-30T10:00:00Z',
];

describe('reading an agent report', () => {
  it('takes a report that keeps every rule as the same object, checked where it lies', () => {
    const body = report();
    expect(readsQuickly(clone(body))).toBe(true);
    const read = readReport(body);
    expect(read).toBe(body);
    expect(read).toEqual(agentReportSchema.parse(clone(report())));
  });

  it('leaves out the fields the protocol does not name, at every depth, as zod does', () => {
    const body = report() as ReturnType<typeof report> & Record<string, unknown>;
    body.extra = 1;
    Object.assign(body.breakers[0]!, { colour: 'red' });
    Object.assign(body.breakers[0]!.window, { p99: 12 });
    Object.assign(body.breakers[0]!.transitions[0]!, { by: 'someone' });
    const read = readReport(body);
    expect(read).toBe(body);
    expect(read).toEqual(report());
    // settings are a record: every key is the service's
    expect(read.breakers[0]!.settings).toEqual({ errorThresholdPercentage: 50, timeout: 3000, name: 'payments', enabled: true });
  });

  it('leaves to zod a name to trim, and what JSON Schema cannot say: names alike but for case, bounds that do not increase, counts that do not match them', () => {
    const padded = report();
    padded.breakers[0]!.name = ' payments ';
    expect(readsQuickly(clone(padded))).toBe(false);
    expect(readReport(padded).breakers[0]!.name).toBe('payments');

    const twins = report();
    twins.breakers[1]!.name = 'PAYMENTS';
    expect(() => readReport(twins)).toThrow('breaker names must be unique within a report, whatever their letter case');

    const falling = report();
    falling.breakers[0]!.window.latencyHistogram.boundsMs = [1, 10, 5, 50];
    expect(() => readReport(falling)).toThrow('boundsMs must increase');

    const short = report();
    short.breakers[0]!.window.latencyHistogram.counts = [0, 12, 8, 3];
    expect(() => readReport(short)).toThrow('counts must have one more entry than boundsMs');

    const fractions = report();
    fractions.breakers[0]!.window.latencyHistogram.counts = [0, 12, 8.5, 3, 1];
    expect(() => readReport(fractions)).toThrow(BadRequestException);
  });

  it('leaves out a setting named __proto__, as zod does', () => {
    const text = JSON.stringify(report()).replace('"settings":{', '"settings":{"__proto__":5,');
    const body = JSON.parse(text) as ReturnType<typeof report>;
    expect(Object.keys(body.breakers[0]!.settings!)).toContain('__proto__');
    const read = readReport(body);
    expect(Object.keys(read.breakers[0]!.settings!)).not.toContain('__proto__');
    expect(read).toEqual(agentReportSchema.parse(JSON.parse(text)));
  });

  it('counts a name’s length as zod does, in code points', () => {
    const longest = report();
    longest.breakers[0]!.name = '😀'.repeat(AGENT_PROTOCOL_LIMITS.nameLength);
    expect(readReport(longest)).toBe(longest);
    const longer = report();
    longer.breakers[0]!.name = '😀'.repeat(AGENT_PROTOCOL_LIMITS.nameLength + 1);
    expect(readsQuickly(clone(longer))).toBe(false);
    expect(() => readReport(longer)).toThrow('breakers.0.name: Too big');
  });

  it('never takes a report zod refuses, nor reads one otherwise than zod: 4,000 reports each changed in one place', () => {
    const next = randomFrom(46);
    let quick = 0;
    let refused = 0;
    for (let i = 0; i < 4000; i++) {
      const body = report() as unknown;
      const all = places(body);
      const [holder, key] = all[Math.floor(next() * all.length)]!;
      const change = next();
      if (change < 0.15) delete holder[key];
      else if (change < 0.2) holder[`${key}Extra`] = REPLACEMENTS[Math.floor(next() * REPLACEMENTS.length)];
      else holder[key] = clone(REPLACEMENTS[Math.floor(next() * REPLACEMENTS.length)]);
      const byZod = agentReportSchema.safeParse(clone(body));
      const quickly = clone(body);
      if (readsQuickly(quickly)) {
        quick++;
        expect({ i, ok: byZod.success }).toEqual({ i, ok: true });
        expect(quickly).toEqual(byZod.data);
      }
      if (!byZod.success) refused++;
      // readReport as a whole: zod's verdict and reading, whichever path it took
      let read: unknown;
      try {
        read = readReport(clone(body));
      } catch (error) {
        expect(error).toBeInstanceOf(BadRequestException);
        read = 'refused';
      }
      expect({ i, read }).toEqual({ i, read: byZod.success ? byZod.data : 'refused' });
    }
    // both kinds were met often enough for the comparison to mean something
    expect(quick).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(1000);
  });
});
