import { budgetText, percentText, reportMonths } from './slo-text';
import { flatRefusal, SLO_FORM, type SloDraft } from './slo-form';
import { CHECKOUT, LATENCY } from './test-kit';

const draft = (fields: Partial<SloDraft>): SloDraft => ({ ...SLO_FORM.empty(), name: 'Checkout', breakers: [5], ...fields });

it('judges the target, the threshold and the members in the schema’s words', () => {
  expect(SLO_FORM.problems(draft({}), true)).toEqual({});
  expect(SLO_FORM.problems(draft({ name: ' ', target: 'high' }), true)).toEqual({
    name: 'must not be empty',
    target: 'must be a percentage such as 99.9',
  });
  expect(SLO_FORM.problems(draft({ target: '100' }), true).target).toBe('must be from 50 to 99.999');
  expect(SLO_FORM.problems(draft({ target: '98.1234' }), true).target).toBe('must have at most three decimals');
  expect(SLO_FORM.problems(draft({ target: '99.999' }), true).target).toBeUndefined();
  expect(SLO_FORM.problems(draft({ kind: 'breaker-latency', thresholdMs: '1.5' }), true).thresholdMs).toBe('must be whole milliseconds');
  expect(SLO_FORM.problems(draft({ breakers: [] }), true).breakers).toBe('must name at least one breaker');
  expect(SLO_FORM.problems(draft({ members: 'service', service: 'Check out' }), true).service).toMatch(/^must be a service name/);
  expect(SLO_FORM.problems(draft({ kind: 'domain-uptime' }), true).domains).toBe('must name at least one domain');
  expect(SLO_FORM.problems(draft({ kind: 'remote-loads' }), true).remote).toBe('pick a remote');
  // the fields another kind takes are not judged
  expect(SLO_FORM.problems(draft({ kind: 'remote-loads', remote: 'mfe_status', breakers: [] }), true)).toEqual({});
});

it('sends only the indicator’s own fields, and an edit only what changed', () => {
  expect(SLO_FORM.toCreate(draft({ kind: 'breaker-latency', members: 'service', service: ' checkout ', thresholdMs: '250' }))).toEqual({
    name: 'Checkout',
    target: 99.9,
    window: '30d',
    indicator: { kind: 'breaker-latency', service: 'checkout', thresholdMs: 250 },
  });
  expect(SLO_FORM.toUpdate(SLO_FORM.draftOf(LATENCY), LATENCY)).toEqual({});
  expect(SLO_FORM.toUpdate(SLO_FORM.draftOf(CHECKOUT), CHECKOUT)).toEqual({});
  // an indicator is compared whatever order the API wrote its fields in
  const reordered = { ...LATENCY, indicator: { thresholdMs: 300, breakers: [5, 6], kind: 'breaker-latency' as const } };
  expect(SLO_FORM.toUpdate(SLO_FORM.draftOf(reordered), reordered)).toEqual({});
  expect(SLO_FORM.toUpdate({ ...SLO_FORM.draftOf(LATENCY), description: 'Fast', thresholdMs: '200' }, LATENCY)).toEqual({
    description: 'Fast',
    indicator: { kind: 'breaker-latency', breakers: [5, 6], thresholdMs: 200 },
  });
});

it('names an indicator’s refused field as the form names it', () => {
  const refusal = { status: 422, data: { message: 'indicator.breakers: no breaker with id 7; indicator.thresholdMs.0: bad; name: taken' } };
  expect(flatRefusal(refusal)).toEqual({
    status: 422,
    data: { message: 'breakers: no breaker with id 7; thresholdMs.0: bad; name: taken' },
  });
  expect(flatRefusal({ status: 'FETCH_ERROR' })).toEqual({ status: 'FETCH_ERROR' });
});

it('writes the figures: an SLI under 100 never rounds up, an overspent budget says so, reports by UTC month', () => {
  expect(percentText(99.95)).toBe('99.95%');
  expect(percentText(99.99995)).toBe('99.999%');
  expect(percentText(100)).toBe('100%');
  expect(budgetText(0.625)).toBe('62.5%');
  expect(budgetText(-12.5)).toBe('-1,250% (overspent)');
  expect(reportMonths(new Date('2026-01-01T00:30:00Z'))).toEqual(['2026-01', '2025-12']);
});
