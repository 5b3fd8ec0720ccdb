/**
 * How long ago a moment was, in the largest whole unit: 'just now', '42 s ago', '2 min ago', '3 h ago', '2 d ago';
 * `now` in ms since the epoch. Read with useTimeText, so it counts on by itself.
 */
export function agoText(at: string, now: number): string {
  // a replica's or a service's clock a little ahead of this one must not read as a moment in the future
  const seconds = Math.max(0, Math.floor((now - Date.parse(at)) / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}
