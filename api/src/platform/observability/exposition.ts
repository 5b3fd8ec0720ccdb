/*
 * Prometheus's text exposition format (version 0.0.4), written by hand for the breakers' series: their label sets come
 * and go with the breakers and the service instances, and their counters are kept elsewhere (this replica's engine, the
 * instances' rows), so a client library's registered metrics would only be copies to keep in step.
 */

/**
 * The latency buckets of every histogram the hub writes, in seconds: Prometheus clients' defaults, from 5 ms to 10 s.
 * A dozen buckets per series keeps the breakers' histograms small.
 */
export const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
/** Bucket counts kept per histogram: one per bound, then the calls slower than every bound. */
export const BUCKET_SLOTS = LATENCY_BUCKETS_SECONDS.length + 1;

/** The bucket (index into counts of BUCKET_SLOTS) a latency in ms falls in. */
export function bucketOf(ms: number): number {
  for (let i = 0; i < LATENCY_BUCKETS_SECONDS.length; i++) if (ms <= LATENCY_BUCKETS_SECONDS[i]! * 1000) return i;
  return LATENCY_BUCKETS_SECONDS.length;
}

export type Labels = Readonly<Record<string, string>>;

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const escapeHelp = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function labelText(labels: Labels): string {
  let text = '';
  for (const key in labels) text += `${text ? ',' : ''}${key}="${escapeLabel(labels[key]!)}"`;
  return text ? `{${text}}` : '';
}

/** One metric family: its HELP and TYPE lines, then its samples, all together as the format wants. */
export class Family {
  private readonly lines: string[];

  constructor(
    readonly name: string,
    type: 'gauge' | 'counter' | 'summary' | 'histogram',
    help: string,
  ) {
    this.lines = [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`];
  }

  /** A sample of the family itself (a gauge or counter), or of one of its parts (`_count`, `_sum`, `_bucket`). */
  sample(labels: Labels, value: number, suffix = ''): this {
    this.lines.push(`${this.name}${suffix}${labelText(labels)} ${formatValue(value)}`);
    return this;
  }

  /**
   * One histogram series: `buckets` holds the count of each bucket of LATENCY_BUCKETS_SECONDS and the overflow (not
   * cumulative), written cumulative with le="+Inf" equal to the count, as the format requires.
   */
  histogram(labels: Labels, buckets: ArrayLike<number>, sumSeconds: number): this {
    let seen = 0;
    for (let i = 0; i < BUCKET_SLOTS; i++) {
      seen += buckets[i] ?? 0;
      const le = i < LATENCY_BUCKETS_SECONDS.length ? String(LATENCY_BUCKETS_SECONDS[i]) : '+Inf';
      this.sample({ ...labels, le }, seen, '_bucket');
    }
    this.sample(labels, sumSeconds, '_sum');
    return this.sample(labels, seen, '_count');
  }

  get empty(): boolean {
    return this.lines.length === 2;
  }

  text(): string {
    return this.lines.join('\n');
  }
}

/** The families as one exposition; a family without samples is left out. */
export function exposition(families: readonly Family[]): string {
  const written = families.filter((family) => !family.empty).map((family) => family.text());
  return written.length ? `${written.join('\n')}\n` : '';
}
