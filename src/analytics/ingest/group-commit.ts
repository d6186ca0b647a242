/**
 * Group commit: items added within a short window are handed to `commit` together, and each `add` settles only when
 * the commit holding its item has settled — so a resolved `add` means the item is stored, and a failed commit fails
 * exactly the items it held. A commit holds at most `maxItems`; it starts when `maxItems` are waiting, or
 * `maxDelayMs` after the first of them arrived (or after a commit ended: a synchronous database — SQLite — blocks the
 * event loop while it commits, so requests are read only in between). At most `maxConcurrent` commits are in
 * flight: while one holds the database the next is prepared and waits for it, so the database is never idle.
 */
export class GroupCommit<T> {
  private pending: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running = new Set<Promise<void>>();

  constructor(
    private readonly params: {
      maxItems: number;
      maxDelayMs: number;
      maxConcurrent?: number;
      commit: (items: T[]) => Promise<void>;
      /** called when nothing is pending or in flight any more */
      onIdle?: () => void;
    },
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Commits everything added so far without waiting out the window. */
  async flush(): Promise<void> {
    while (this.pending.length || this.running.size) {
      while (this.pending.length && this.running.size < (this.params.maxConcurrent ?? 1)) this.start();
      await Promise.race(this.running);
    }
  }

  private schedule(): void {
    if (this.running.size >= (this.params.maxConcurrent ?? 1)) return;
    if (this.pending.length >= this.params.maxItems) this.start();
    else this.timer ??= setTimeout(() => this.start(), this.params.maxDelayMs);
  }

  private start(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending.splice(0, this.params.maxItems);
    if (!batch.length) return;
    const run: Promise<void> = (async () => {
      try {
        await this.params.commit(batch.map((b) => b.item));
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    })().finally(() => {
      this.running.delete(run);
      if (this.pending.length) this.schedule();
      else if (!this.running.size) this.params.onIdle?.();
    });
    this.running.add(run);
    if (this.pending.length) this.schedule();
  }
}
