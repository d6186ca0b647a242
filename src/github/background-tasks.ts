import type { Logger } from '../logger.js';

/**
 * Work the webhook handler hands off so GitHub gets its answer at once (it gives up after 10 seconds). Tracked so
 * shutdown can wait for it, and so a failure is logged rather than lost.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(what: string, task: () => Promise<void>): void {
    const promise = task()
      .catch((err: unknown) => this.logger.error({ err, task: what }, 'background GitHub task failed'))
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  get size(): number {
    return this.running.size;
  }

  /** Waits for the tasks started so far (and any they start). */
  async drain(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}
