// One line per measure for `npm run bench` (bench/all.mjs) to collect into its table:
// BENCH <tab> measure <tab> figure <tab> goal <tab> OK|MISSED, or 'baseline' (ok null) for a figure the goals are read against
export function benchLine(measure, figure, goal, ok) {
  console.log(['BENCH', measure, figure, goal, ok === null ? 'baseline' : ok ? 'OK' : 'MISSED'].join('\t'));
}

/** A command-line option's number: `--name 12`, or the fallback. */
export function numberArg(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
