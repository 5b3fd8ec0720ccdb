/**
 * The bulkhead's admission, apart from the state machine: how many calls may be in flight at once and how many
 * may wait for a slot. The simple and adaptive types get one without a limit, so every breaker counts its
 * calls in flight the same way.
 */
export class Bulkhead {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly maxConcurrent = Number.POSITIVE_INFINITY,
    readonly maxQueue = 0,
  ) {}

  get callsInFlight(): number {
    return this.inFlight;
  }

  get full(): boolean {
    return this.inFlight >= this.maxConcurrent;
  }

  get canQueue(): boolean {
    return this.waiting.length < this.maxQueue;
  }

  acquire(): void {
    this.inFlight++;
  }

  /** Resolves when a finishing call hands its slot over: the slot stays counted in flight for the waiter. */
  waitForSlot(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    if (this.waiting.length > 0) this.waiting.shift()!();
    else if (this.inFlight > 0) this.inFlight--;
  }
}
