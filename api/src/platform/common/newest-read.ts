/**
 * A cache's read of the database that may be asked again before it ends (a change here, a NOTIFY from another
 * replica, a reconnect): each call reads, and a result is kept only if no read started later was kept first. Two reads
 * on two pooled connections can end in either order, and the one started before a change must never overwrite what a
 * read started after it found: that replica would serve the old state until the next change.
 * Once `read()` resolves, what is kept is at least as new as the database when it was called.
 */
export function newestRead<T>(read: () => Promise<T>, keep: (value: T) => void): () => Promise<void> {
  let started = 0;
  let kept = 0;
  return async () => {
    const ticket = ++started;
    const value = await read();
    if (ticket < kept) return;
    kept = ticket;
    keep(value);
  };
}
