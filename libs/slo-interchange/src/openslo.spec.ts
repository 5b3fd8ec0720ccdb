import { SLO_LIMITS } from '@cbh/contracts';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { fromOpenSlo, OpenSloImportError, opensloSloSchema, toOpenSlo, type OpenSloProblem, type SloDefinition } from './index';

const SLOS: SloDefinition[] = [
  {
    name: 'Checkout calls',
    description: 'Checkout answers its callers',
    target: 99.9,
    window: '30d',
    indicator: { kind: 'breaker-calls', service: 'checkout' },
  },
  {
    name: 'Search latency',
    description: null,
    target: 99,
    window: '7d',
    indicator: { kind: 'breaker-latency', breakers: [3, 1], thresholdMs: 250 },
  },
  { name: 'Café — domains: 99.95 %', target: 99.95, window: '28d', indicator: { kind: 'domain-uptime', domains: [7] } },
  {
    name: 'Dashboard loads',
    description: 'line one\nline two',
    target: 99.999,
    window: '30d',
    indicator: { kind: 'remote-loads', remote: 'mfe_dashboard' },
  },
];

/** The problems fromOpenSlo throws for `text`, without their places in the text. */
function problemsOf(text: string): Omit<OpenSloProblem, 'line' | 'column'>[] {
  try {
    fromOpenSlo(text);
  } catch (error) {
    if (!(error instanceof OpenSloImportError)) throw error;
    return error.problems.map(({ document, path, message }) => ({ document, path, message }));
  }
  throw new Error('fromOpenSlo took the text');
}

/** A document as the tests read and edit it: any field, at any depth (they are checked against what was written). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>;

/** The export of SLOS[0] with `edit` applied to the document. */
function edited(edit: (document: Doc) => void): string {
  const document = parse(toOpenSlo([SLOS[0]!])) as Doc;
  edit(document);
  return stringify(document);
}

describe('toOpenSlo', () => {
  it('writes each SLO as an OpenSLO v1 SLO with a DNS-1123 name, a ratio target and an inline cbh indicator', () => {
    const documents = parseAllDocuments(toOpenSlo(SLOS)).map((document) => document.toJS() as Doc);
    expect(documents).toHaveLength(4);
    expect(documents[0]).toEqual({
      apiVersion: 'openslo/v1',
      kind: 'SLO',
      metadata: { name: 'checkout-calls', displayName: 'Checkout calls' },
      spec: {
        description: 'Checkout answers its callers',
        service: 'checkout',
        indicator: {
          metadata: { name: 'breaker-calls', displayName: 'Breaker calls' },
          spec: {
            ratioMetric: {
              counter: true,
              good: { metricSource: { type: 'cbh', spec: { kind: 'breaker-calls', service: 'checkout', events: 'good' } } },
              total: { metricSource: { type: 'cbh', spec: { kind: 'breaker-calls', service: 'checkout', events: 'total' } } },
            },
          },
        },
        timeWindow: [{ duration: '30d', isRolling: true }],
        budgetingMethod: 'Occurrences',
        objectives: [{ target: 0.999 }],
      },
    });
    expect(documents.map((document) => document.metadata.name)).toEqual([
      'checkout-calls',
      'search-latency',
      'cafe-domains-99-95',
      'dashboard-loads',
    ]);
    expect(documents.map((document) => document.spec.service)).toEqual(['checkout', 'hub', 'hub', 'hub']);
    // percentages of three decimals as exact ratios, not 0.9994999999999999
    expect(documents.map((document) => document.spec.objectives[0].target)).toEqual([0.999, 0.99, 0.9995, 0.99999]);
    expect(documents[1]!.spec.description).toBeUndefined();
    for (const document of documents) expect(opensloSloSchema.safeParse(document).error).toBeUndefined();
  });

  it('makes names unique in the file and keeps them to 63 characters', () => {
    const long = 'x'.repeat(SLO_LIMITS.nameLength);
    const names = parseAllDocuments(
      toOpenSlo([
        SLOS[0]!,
        { ...SLOS[0]!, name: 'checkout  CALLS' },
        { ...SLOS[0]!, name: long },
        { ...SLOS[0]!, name: `${long}!` },
        { ...SLOS[0]!, name: '%%%' },
      ]),
    ).map((document) => (document.toJS() as { metadata: { name: string } }).metadata.name);
    expect(names).toEqual(['checkout-calls', 'checkout-calls-2', 'x'.repeat(63), `${'x'.repeat(61)}-2`, 'slo']);
  });

  it('keeps a description longer than OpenSLO allows whole in an annotation, and reads it back', () => {
    const description = 'word '.repeat(SLO_LIMITS.descriptionLength / 5 - 1) + 'end';
    const text = toOpenSlo([{ ...SLOS[0]!, description }]);
    const document = parse(text) as Doc;
    expect(document.spec.description).toHaveLength(1050);
    expect(document.metadata.annotations).toEqual({ 'cbh.local/description': description });
    expect(opensloSloSchema.safeParse(document).error).toBeUndefined();
    expect(fromOpenSlo(text)[0]!.description).toBe(description);
  });
});

describe('fromOpenSlo', () => {
  it('reads back exactly what was exported, and export → import → export is byte-identical', () => {
    const text = toOpenSlo(SLOS);
    const bodies = fromOpenSlo(text);
    expect(bodies).toEqual(SLOS.map((slo) => ({ ...slo, description: slo.description ?? null })));
    expect(toOpenSlo(bodies)).toBe(text);
  });

  it('reads targetPercent, 1w and 4w, displayName-less documents, fields in another order, and skips empty documents', () => {
    const text = edited((document) => {
      document.spec.objectives = [{ targetPercent: 99.5 }];
      document.spec.timeWindow[0].duration = '4w';
      delete document.metadata.displayName;
      document.spec.indicator.spec.ratioMetric.total.metricSource.spec = { events: 'total', service: 'checkout', kind: 'breaker-calls' };
    });
    expect(fromOpenSlo(`---\n${text}---\n`)).toEqual([
      { name: 'checkout-calls', description: 'Checkout answers its callers', target: 99.5, window: '28d', indicator: SLOS[0]!.indicator },
    ]);
    expect(fromOpenSlo('')).toEqual([]);
  });

  it('says which document is not OpenSLO v1, or not an SLO, and where', () => {
    const text = [
      'apiVersion: openslo/v1alpha\nkind: SLO\nmetadata: { name: a }\nspec: {}\n',
      'apiVersion: openslo/v1\nkind: Service\nmetadata: { name: checkout }\nspec: {}\n',
      'hello: world\n',
      '- a list\n',
      toOpenSlo([SLOS[0]!]),
    ].join('---\n');
    expect(problemsOf(text)).toEqual([
      { document: 1, path: 'apiVersion', message: 'is "openslo/v1alpha": only OpenSLO v1 documents (apiVersion: openslo/v1) can be read' },
      { document: 2, path: 'kind', message: 'is Service: only SLO documents can be imported' },
      { document: 3, path: '', message: 'has no apiVersion: it is not an OpenSLO document (apiVersion: openslo/v1, kind: SLO)' },
      { document: 4, path: '', message: 'must be a mapping: an OpenSLO document with apiVersion, kind, metadata and spec' },
    ]);
    try {
      fromOpenSlo(text);
    } catch (error) {
      const { problems, message } = error as OpenSloImportError;
      expect(problems.map((problem) => [problem.line, problem.column])).toEqual([
        [1, 13],
        [7, 7],
        [11, 1],
        [13, 1],
      ]);
      expect(message.split('\n')[1]).toBe('7:7: document 2: kind: is Service: only SLO documents can be imported');
    }
  });

  it("holds documents to OpenSLO v1's SLO schema", () => {
    expect(
      problemsOf(
        edited((document) => {
          document.metadata.name = 'Checkout Calls';
          document.spec.objectives = [{ target: 1, displayName: '' }];
          document.spec.timeWindow.push({ duration: '30d', isRolling: true });
          document.spec.budgetingMethod = 'Sometimes';
          document.spec.indicator.spec.ratioMetric.bad = document.spec.indicator.spec.ratioMetric.good;
          document.spec.objective = [];
        }),
      ),
    ).toEqual([
      { document: 1, path: 'metadata.name', message: expect.stringMatching(/^must be an RFC 1123 name/) },
      { document: 1, path: 'spec.indicator.spec.ratioMetric.bad', message: 'either good or bad, not both' },
      { document: 1, path: 'spec.timeWindow', message: 'must hold exactly one window' },
      { document: 1, path: 'spec.budgetingMethod', message: 'must be Occurrences, Timeslices or RatioTimeslices' },
      { document: 1, path: 'spec.objectives[0].displayName', message: 'must not be empty' },
      { document: 1, path: 'spec.objectives[0].target', message: 'must be below 1' },
      { document: 1, path: 'spec.objective', message: "is not a field of OpenSLO v1's SLO" },
    ]);
    expect(
      problemsOf(
        edited((document) => {
          document.spec.timeWindow = [{ duration: '1 day' }];
          delete document.spec.indicator.spec.ratioMetric.counter;
        }),
      ),
    ).toEqual([
      { document: 1, path: 'spec.indicator.spec.ratioMetric.counter', message: 'is required: true for a counter that only goes up' },
      { document: 1, path: 'spec.timeWindow[0].duration', message: expect.stringMatching(/^must be a duration shorthand/) },
      { document: 1, path: 'spec.timeWindow[0].calendar', message: 'a window that is not rolling (isRolling: true) needs a calendar' },
    ]);
    // what spans fields is checked once each field is right
    expect(
      problemsOf(
        edited((document) => {
          document.spec.timeWindow = [{ duration: '1M' }];
          document.spec.indicatorRef = 'elsewhere';
        }),
      ),
    ).toEqual([
      { document: 1, path: 'spec.timeWindow[0].calendar', message: 'a window that is not rolling (isRolling: true) needs a calendar' },
      { document: 1, path: 'spec.indicatorRef', message: 'either indicator or indicatorRef, not both' },
    ]);
  });

  it("refuses other tools' metric sources: only the hub's own indicators can be imported", () => {
    const prometheus = { metricSource: { type: 'Prometheus', spec: { query: 'sum(rate(http_requests_total[5m]))' } } };
    expect(
      problemsOf(
        edited((document) => {
          document.spec.indicator.spec.ratioMetric.good = prometheus;
          document.spec.indicator.spec.ratioMetric.total = { metricSource: { metricSourceRef: 'thanos', spec: {} } };
        }),
      ),
    ).toEqual([
      {
        document: 1,
        path: 'spec.indicator.spec.ratioMetric.good.metricSource.type',
        message:
          "is Prometheus: only the hub's own indicators can be imported: a metric source of type cbh, as `cbh slo export --openslo` writes it",
      },
      {
        document: 1,
        path: 'spec.indicator.spec.ratioMetric.total.metricSource.type',
        message:
          "is the DataSource thanos: only the hub's own indicators can be imported: a metric source of type cbh, as `cbh slo export --openslo` writes it",
      },
    ]);
  });

  it('says what of a valid OpenSLO SLO the hub cannot hold', () => {
    expect(
      problemsOf(
        edited((document) => {
          document.spec.budgetingMethod = 'Timeslices';
          document.spec.objectives = [
            { target: 0.999999, timeSliceTarget: 0.9, timeSliceWindow: '1m' },
            { target: 0.9, timeSliceTarget: 0.9, timeSliceWindow: '1m' },
          ];
          document.spec.timeWindow = [{ duration: '1M', calendar: { startTime: '2020-01-01 00:00:00', timeZone: 'Europe/Paris' } }];
        }),
      ),
    ).toEqual([
      {
        document: 1,
        path: 'spec.budgetingMethod',
        message: 'is Timeslices: the hub counts good events of all events, which is Occurrences',
      },
      { document: 1, path: 'spec.objectives', message: 'must hold one objective: the hub keeps one target an SLO' },
      {
        document: 1,
        path: 'spec.objectives[0].target',
        message: 'has more decimals than the hub keeps: a target is a percentage of at most three decimals (0.99999 or 99.999)',
      },
      {
        document: 1,
        path: 'spec.timeWindow[0].isRolling',
        message: 'must be true: the hub judges objectives over rolling windows, not calendar ones',
      },
    ]);
    expect(problemsOf(edited((document) => (document.spec.objectives[0].target = 0.4)))).toEqual([
      {
        document: 1,
        path: 'spec.objectives[0].target',
        message: 'must be from 0.5 to 0.99999: the hub takes targets from 50 % to 99.999 %',
      },
    ]);
    expect(problemsOf(edited((document) => (document.spec.timeWindow[0].duration = '90d')))).toEqual([
      { document: 1, path: 'spec.timeWindow[0].duration', message: "is 90d: the hub's windows are 7d, 28d, 30d" },
    ]);
  });

  it("points the hub's refusal of an indicator into the good metric source, and wants good and total to agree", () => {
    expect(
      problemsOf(
        edited((document) => {
          document.spec.indicator.spec.ratioMetric.good.metricSource.spec = {
            kind: 'breaker-calls',
            service: 'Not A Service',
            events: 'good',
          };
        }),
      ),
    ).toEqual([
      {
        document: 1,
        path: 'spec.indicator.spec.ratioMetric.total.metricSource.spec',
        message: 'must name the same indicator as good (only events differs)',
      },
    ]);
    const both = (spec: Record<string, unknown>) =>
      edited((document) => {
        document.spec.indicator.spec.ratioMetric.good.metricSource.spec = { ...spec, events: 'good' };
        document.spec.indicator.spec.ratioMetric.total.metricSource.spec = { ...spec, events: 'total' };
      });
    expect(problemsOf(both({ kind: 'breaker-latency', breakers: [1], thresholdMs: 1, colour: 'red' }))).toEqual([
      { document: 1, path: 'spec.indicator.spec.ratioMetric.good.metricSource.spec.colour', message: 'is not a field of this indicator' },
    ]);
    expect(problemsOf(both({ kind: 'breaker-latency', breakers: [1], thresholdMs: 0 }))).toEqual([
      { document: 1, path: 'spec.indicator.spec.ratioMetric.good.metricSource.spec.thresholdMs', message: 'must be at least 1 ms' },
    ]);
    expect(problemsOf(both({ kind: 'uptime' }))).toEqual([
      {
        document: 1,
        path: 'spec.indicator.spec.ratioMetric.good.metricSource.spec.kind',
        message: 'must be an indicator: breaker-calls, breaker-latency, domain-uptime or remote-loads',
      },
    ]);
    expect(problemsOf(edited((document) => (document.spec.indicator.spec.ratioMetric.good.metricSource.spec.events = 'total')))).toEqual([
      {
        document: 1,
        path: 'spec.indicator.spec.ratioMetric.good.metricSource.spec.events',
        message: "must be good: the good source counts the indicator's good events",
      },
    ]);
  });

  it('refuses two documents of the same name, and text that is not YAML', () => {
    expect(problemsOf(toOpenSlo([SLOS[0]!]) + '---\n' + toOpenSlo([{ ...SLOS[0]!, name: 'CHECKOUT calls' }]))).toEqual([
      { document: 2, path: 'metadata.displayName', message: 'document 1 has the same name: each SLO of the hub has a name of its own' },
    ]);
    expect(problemsOf('apiVersion: [openslo/v1\n')).toEqual([{ document: 1, path: '', message: expect.stringMatching(/^not YAML: /) }]);
  });
});
