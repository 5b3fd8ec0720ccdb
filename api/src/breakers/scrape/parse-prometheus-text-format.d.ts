// parse-prometheus-text-format ships no types; this is the part of its output the scraper reads.
declare module 'parse-prometheus-text-format' {
  /**
   * One sample, or the samples of one label set merged (a summary's _count and _sum written one after the other).
   * Every number stays the text it was written as: "1.0", "NaN", "+Inf".
   */
  export interface PrometheusSample {
    labels?: Record<string, string>;
    /** The sample of the family's own name. */
    value?: string;
    /** A summary's or histogram's _count and _sum. */
    count?: string;
    sum?: string;
    /** Only when none of the family's samples had other labels than quantile or le. */
    quantiles?: Record<string, string>;
    buckets?: Record<string, string>;
    timestamp_ms?: string;
  }

  export interface PrometheusFamily {
    name: string;
    help: string;
    /** COUNTER, GAUGE, SUMMARY, HISTOGRAM or UNTYPED: the TYPE line's word, upper-cased. */
    type: string;
    metrics: PrometheusSample[];
  }

  /** Throws on a malformed TYPE or HELP line and on broken label syntax; takes most other text as samples. */
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
