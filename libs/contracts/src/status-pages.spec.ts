import { componentState, worstState, type MemberBreaker, type MemberDomain } from './status-page-vocabulary';
import { createStatusPageSchema, updateStatusPageSchema } from './status-pages';

const closed: MemberBreaker = { state: 'CLOSED' };
const open: MemberBreaker = { state: 'OPEN' };
const halfOpen: MemberBreaker = { state: 'HALF_OPEN' };
const up: MemberDomain = { down: false, slow: false };
const slow: MemberDomain = { down: false, slow: true };
const down: MemberDomain = { down: true, slow: false };

describe("a component's state, derived from its breakers and domains", () => {
  const state = (breakers: MemberBreaker[], domains: MemberDomain[] = [], extra = {}) =>
    componentState({ breakers, domains, inMaintenance: false, ...extra });

  it('is operational while every breaker is closed and every domain answers in time, and with no members', () => {
    expect(state([closed, closed], [up])).toBe('operational');
    expect(state([])).toBe('operational');
  });

  it('is degraded when a breaker is half-open or a domain is slow', () => {
    expect(state([closed, halfOpen], [up])).toBe('degraded');
    expect(state([closed], [slow])).toBe('degraded');
  });

  it('is a partial outage when some of its breakers are open or some domains down, a major one when all are', () => {
    expect(state([closed, open])).toBe('partial_outage');
    expect(state([closed], [down])).toBe('partial_outage');
    expect(state([open, open])).toBe('major_outage');
    expect(state([open], [down])).toBe('major_outage');
    expect(state([], [down, down])).toBe('major_outage');
  });

  it('is under maintenance inside a window covering a member, and an open incident may set it by hand', () => {
    expect(state([open], [], { inMaintenance: true })).toBe('maintenance');
    expect(state([closed], [], { inMaintenance: true, incidentState: 'major_outage' })).toBe('major_outage');
    expect(state([open], [], { incidentState: 'degraded' })).toBe('degraded');
  });

  it("gives a page the worst of its components' states", () => {
    expect(worstState([])).toBe('operational');
    expect(worstState(['operational', 'maintenance', 'degraded'])).toBe('degraded');
    expect(worstState(['partial_outage', 'major_outage', 'operational'])).toBe('major_outage');
  });
});

describe('a status page as it is written', () => {
  const page = { slug: 'payments', title: 'Payments', public: true };

  it('takes a page with components naming breakers and domains by id, each id once', () => {
    const parsed = createStatusPageSchema.parse({
      ...page,
      components: [{ name: 'Checkout', breakers: [3, 3, 4], domains: [7] }, { name: 'Refunds' }],
    });
    expect(parsed.components).toEqual([
      { name: 'Checkout', breakers: [3, 4], domains: [7] },
      { name: 'Refunds', breakers: [], domains: [] },
    ]);
  });

  it('refuses a slug that is not lower-case letters, digits and single hyphens, and two components alike', () => {
    for (const slug of ['Payments', 'pay--ments', '-payments', 'pay/ments', 'x'.repeat(61)]) {
      expect(createStatusPageSchema.safeParse({ ...page, slug }).success).toBe(false);
    }
    const twice = createStatusPageSchema.safeParse({ ...page, components: [{ name: 'API' }, { name: 'api' }] });
    expect(twice.success).toBe(false);
    expect(twice.error?.issues[0]?.message).toBe('must not name two components alike');
  });

  it('bounds every list and text, and refuses unknown fields', () => {
    expect(
      createStatusPageSchema.safeParse({ ...page, components: Array.from({ length: 51 }, (_, n) => ({ name: `c${n}` })) }).success,
    ).toBe(false);
    const many = Array.from({ length: 101 }, (_, n) => n + 1);
    expect(createStatusPageSchema.safeParse({ ...page, components: [{ name: 'All', breakers: many }] }).success).toBe(false);
    expect(createStatusPageSchema.safeParse({ ...page, title: 'x'.repeat(121) }).success).toBe(false);
    expect(createStatusPageSchema.safeParse({ ...page, theme: 'dark' }).success).toBe(false);
  });

  it('takes any one field on an update, and refuses an empty one', () => {
    expect(updateStatusPageSchema.parse({ public: false })).toEqual({ public: false });
    expect(updateStatusPageSchema.safeParse({}).success).toBe(false);
  });
});
