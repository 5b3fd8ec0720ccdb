/** Items arriving within one window that make the flow steady: at a 200 ms window, 20 a second. */
const STEADY = 4;

/**
 * Writes that arrive while one is going on wait and go together in the next one: one statement for many callers (a
 * group commit). Without a window a lone write goes at once, and under load the batch is whatever piled up meanwhile;
 * with one (`windowMs`), while writes come steadily (STEADY of them arrived within the window), the first write of a
 * batch waits that long for others to join it — where each statement costs more than the wait. A write after a lull
 * goes at once: nothing would join it.
 */
export class GroupCommit<T, R> {
  private readonly waiting: { item: T; resolve: (result: R) => void; reject: (error: Error) => void }[] = [];
  private writing = false;
  /** When the last STEADY items arrived (ms), oldest first. */
  private readonly arrivals: number[] = [];

  /** `write` answers one result per item, in the items' order. */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 500,
    private readonly windowMs = 0,
  ) {}

  add(item: T): Promise<R> {
    if (this.windowMs > 0) {
      this.arrivals.push(performance.now());
      if (this.arrivals.length > STEADY) this.arrivals.shift();
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.writing) return;
      this.writing = true;
      // after this turn (or the window): what the same turn adds goes in the same write
      if (this.windowMs > 0 && this.steady()) setTimeout(() => void this.drain(), this.windowMs);
      else queueMicrotask(() => void this.drain());
    });
  }

  /** Whether the last STEADY items, this one included, arrived within the window. */
  private steady(): boolean {
    return this.arrivals.length === STEADY && this.arrivals[STEADY - 1]! - this.arrivals[0]! <= this.windowMs;
  }

  private async drain() {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        const results = await this.write(batch.map((entry) => entry.item));
        batch.forEach((entry, index) => entry.resolve(results[index]!));
      } catch (error) {
        for (const entry of batch) entry.reject(error as Error);
      }
    }
    this.writing = false;
  }
}
