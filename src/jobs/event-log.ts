import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { modelTokens } from '../metrics/metrics.js';

interface Pending {
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * A run's step log, written behind the run instead of in its way: `emit` returns at once and the events are
 * stored in order, in batches, one transaction per batch (one disk sync on SQLite). A `turn` event's usage is
 * added to the job's token totals in the same transaction, so polls see usage live. `flush` waits for all of it.
 */
export class JobEventLog {
  private pending: Pending[] = [];
  private draining: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(private readonly params: { db: Db; clock: Clock; jobId: string; model: string; logger: Logger }) {}

  emit = (type: string, data: Record<string, unknown> = {}): Promise<void> => {
    this.pending.push({ type, data, createdAt: this.params.clock() });
    if (!this.scheduled) {
      this.scheduled = true;
      this.draining = this.draining.then(() => this.drain());
    }
    return Promise.resolve();
  };

  async flush(): Promise<void> {
    // Waits for a batch being written as well as for anything queued behind it.
    do await this.draining;
    while (this.scheduled || this.pending.length);
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (!batch.length) return;
    const { db, jobId } = this.params;
    let inputTokens = 0;
    let outputTokens = 0;
    for (const event of batch) {
      const usage =
        event.type === 'turn'
          ? (event.data.usage as { inputTokens?: number; outputTokens?: number } | undefined)
          : undefined;
      inputTokens += usage?.inputTokens ?? 0;
      outputTokens += usage?.outputTokens ?? 0;
    }
    if (inputTokens) modelTokens.inc({ model: this.params.model, direction: 'input' }, inputTokens);
    if (outputTokens) modelTokens.inc({ model: this.params.model, direction: 'output' }, outputTokens);
    try {
      await db.$transaction([
        db.agentJobEvent.createMany({
          data: batch.map((e) => ({ jobId, type: e.type, data: JSON.stringify(e.data), createdAt: e.createdAt })),
        }),
        ...(inputTokens || outputTokens
          ? [
              db.agentJob.update({
                where: { id: jobId },
                data: { inputTokens: { increment: inputTokens }, outputTokens: { increment: outputTokens } },
              }),
            ]
          : []),
      ]);
    } catch (err) {
      // The log must never take a run down; the run's outcome is recorded on the job itself.
      this.params.logger.warn({ err, jobId, lost: batch.length }, 'could not store job events');
    }
  }
}
