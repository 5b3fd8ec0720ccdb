/**
 * A span of time in words a person reads at a glance: '45 s', '4 min', '1 h 20 min', '2 d 3 h'; '—' when there is
 * none (nothing was acknowledged or resolved yet). Two units at most: the second only says what the first leaves
 * out, and a figure to the second after an hour would be noise.
 */
export function durationText(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  // under a minute once rounded: seconds (59.6 s reads as '1 min', not '60 s')
  if (seconds < 59.5) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60) {
    const rest = minutes % 60;
    return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''}`;
  }
  const hours = Math.round(minutes / 60);
  const rest = hours % 24;
  return `${Math.floor(hours / 24)} d${rest ? ` ${rest} h` : ''}`;
}
