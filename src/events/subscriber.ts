// Not an async generator: one suspended in `await` runs its `finally` only when the next event arrives, so a
// client that left would keep its LISTEN until then.
export class Subscriber<In, Out = In> implements AsyncIterableIterator<Out> {
  private readonly queue: In[] = [];
  private waiting: (() => void) | undefined;
  private ended = false;
  private readonly cleanups: (() => void)[] = [];
  /** Dropped oldest first when the client reads too slowly. */
  dropped = 0;

  constructor(
    private readonly limit: number,
    private readonly onEnd: () => void,
    /** Applied when the client reads: undefined skips the event (filters, de-duplication). */
    private readonly map: (value: In) => Out | undefined | Promise<Out | undefined> = (value) => value as unknown as Out,
  ) {}

  get done(): boolean {
    return this.ended;
  }

  push(value: In): void {
    if (this.ended) return;
    if (this.queue.length >= this.limit) {
      this.queue.shift();
      this.dropped++;
    }
    this.queue.push(value);
    this.wake();
  }

  unshift(value: In): void {
    if (this.ended) return;
    this.queue.unshift(value);
    this.wake();
  }

  /** What is queued is still delivered. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.wake();
  }

  onDone(cleanup: () => void): void {
    if (this.ended) cleanup();
    else this.cleanups.push(cleanup);
  }

  async next(): Promise<IteratorResult<Out>> {
    for (;;) {
      const value = this.queue.shift();
      if (value === undefined) {
        if (this.ended) return { value: undefined, done: true };
        await new Promise<void>((resolve) => (this.waiting = resolve));
        continue;
      }
      const mapped = await this.map(value);
      if (mapped !== undefined) return { value: mapped, done: false };
    }
  }

  return(): Promise<IteratorResult<Out>> {
    this.queue.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  async throw(error?: unknown): Promise<IteratorResult<Out>> {
    await this.return();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}
