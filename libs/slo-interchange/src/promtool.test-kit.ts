import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { prometheusRuleGroups, SLO_ALERT_NAMES, sloLabels, type AlertingRule, type RuleOptions, type SloDefinition } from './index';
import type { BurnSeverity } from '@cbh/contracts';

/** Debian's prometheus package's, which `npm test` installs (scripts/debian-packages.mjs). */
export const PROMTOOL = '/usr/bin/promtool';

/** Runs promtool on files written to a scratch folder (removed afterwards); `args` name them by their file names. */
export function promtool(args: string[], files: Record<string, string>): { status: number | null; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'cbh-promtool-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const run = spawnSync(PROMTOOL, args, { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    return { status: run.status, output: `${run.stdout}${run.stderr}${run.error ? String(run.error) : ''}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A counter's samples, one a minute from 0, from the calls made in each minute: '0 1000 2000 …'. */
export function counter(perMinute: readonly number[]): string {
  let total = 0;
  return ['0', ...perMinute.map((calls) => String((total += calls)))].join(' ');
}

/** `minutes` minutes of `calls` calls each. */
export const minutes = (count: number, calls: number): number[] => Array.from({ length: count }, () => calls);

/** The alert promtool should see for the SLO at one severity: its labels and annotations as the rules write them. */
export function expectedAlert(slo: SloDefinition, severity: BurnSeverity, options: RuleOptions = {}) {
  const rule = prometheusRuleGroups(slo, options)[2]!.rules.find(
    (r) => (r as AlertingRule).alert === SLO_ALERT_NAMES[severity],
  ) as AlertingRule;
  return { exp_labels: { ...sloLabels(slo), ...rule.labels }, exp_annotations: rule.annotations };
}

export interface RuleTest {
  name: string;
  /** How far apart the input's samples are: a minute unless said. */
  interval?: string;
  input_series: { series: string; values: string }[];
  alert_rule_test?: { eval_time: string; alertname: string; exp_alerts: ReturnType<typeof expectedAlert>[] }[];
  promql_expr_test?: { expr: string; eval_time: string; exp_samples: { labels?: string; value: number }[] }[];
}

/**
 * `promtool test rules` of the rule file against the tests, scraped and evaluated once a minute. The groups are
 * evaluated in the file's order (promtool's order is otherwise undefined), so that an alert reads the ratios recorded
 * at the same minute, and the minute it fires is known.
 */
export function testRules(rules: string, tests: RuleTest[]) {
  const groups = (parse(rules) as { groups: { name: string }[] }).groups.map((group) => group.name);
  const unitTests = stringify(
    {
      rule_files: ['rules.yml'],
      evaluation_interval: '1m',
      group_eval_order: groups,
      tests: tests.map((test) => ({ interval: '1m', ...test })),
    },
    { lineWidth: 0, aliasDuplicateObjects: false },
  );
  return promtool(['test', 'rules', 'tests.yml'], { 'rules.yml': rules, 'tests.yml': unitTests });
}
