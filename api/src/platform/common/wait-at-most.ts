/**
 * Waits for `work`, `ms` at most: 'late' when the time ran out first (the work goes on, no longer waited for), else
 * 'done'. A rejection of `work` before then is passed on; the timer never outlives the wait.
 */
export async function waitAtMost(work: Promise<unknown>, ms: number): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, ms, 'late')));
  try {
    return await Promise.race([work.then(() => 'done' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
