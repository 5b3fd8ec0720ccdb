/**
 * Runs work for every item with at most `limit` running at once, each bounded by `timeoutMs`: a hung or slow
 * target holds one slot until its timeout, never the others. Resolves when all have finished or timed out.
 */
export async function runBounded<T>(
  items: readonly T[],
  limit: number,
  timeoutMs: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      try {
        await Promise.race([work(item).catch(() => undefined), timeout]);
      } finally {
        clearTimeout(timer);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
