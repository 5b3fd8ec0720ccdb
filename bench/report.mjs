// One line per measure for `npm run bench` (bench/all.mjs) to collect into its table:
// BENCH <tab> measure <tab> figure <tab> goal <tab> OK|MISSED, or 'baseline' (ok null) for a figure the goals are read against
import { readFileSync } from 'node:fs';

export const verdict = (ok) => (ok ? 'OK' : 'MISSED');

export function benchRow(measure, figure, goal, ok) {
  return ['BENCH', measure, figure, goal, ok === null ? 'baseline' : verdict(ok)].join('\t');
}

/** Prints a benchRow at once (a benchmark that prints its rows last collects benchRow's instead). */
export function benchLine(measure, figure, goal, ok) {
  console.log(benchRow(measure, figure, goal, ok));
}

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A command-line option's number: `--name 12`, or the fallback. */
export function numberArg(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

/** `--name a,b,c` as positive numbers in ascending order, or the fallback. */
export function numbersArg(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  const values = at > 0 ? process.argv[at + 1].split(',').map(Number) : fallback;
  if (values.length === 0 || values.some((value) => !Number.isFinite(value) || value <= 0))
    throw new Error(`--${name}: ${values.join(',')}`);
  return [...values].sort((a, b) => a - b);
}

/** `--sizes a,b,c`, or the fallback: the sizes a benchmark measures its growth at. */
export const sizesArg = (fallback) => numbersArg('sizes', fallback);

/** The size a benchmark's goals are checked at: the middle one of those it measures. */
export const goalSize = (sizes) => sizes[Math.floor((sizes.length - 1) / 2)];

/** A process's resident memory now, in MiB (0 once it has gone). */
export function rssMiB(pid) {
  try {
    const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib ? Number(kib) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** `start()` again after a failure, up to `tries` times a few seconds apart: a port another run on the machine is letting go of. */
export async function withRetries(start, tries = 3, waitMs = 5000) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= tries) throw error;
      console.log(`${error.message}; trying again in ${waitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
