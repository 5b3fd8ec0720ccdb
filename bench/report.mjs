// One line per measure for `npm run bench` (bench/all.mjs) to collect into its table:
// BENCH <tab> measure <tab> figure <tab> goal <tab> OK|MISSED, or 'baseline' (ok null) for a figure the goals are read against
export const verdict = (ok) => (ok ? 'OK' : 'MISSED');

export function benchRow(measure, figure, goal, ok) {
  return ['BENCH', measure, figure, goal, ok === null ? 'baseline' : verdict(ok)].join('\t');
}

/** Prints a benchRow at once (a benchmark that prints its rows last collects benchRow's instead). */
export function benchLine(measure, figure, goal, ok) {
  console.log(benchRow(measure, figure, goal, ok));
}

/** A command-line option's number: `--name 12`, or the fallback. */
export function numberArg(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
