import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { jobsByStatus, onScrape, workerQueueDepth } from '../metrics/metrics.js';
import { JOB_STATUSES } from './job-status.js';

/**
 * Refreshes the job gauges from the database at each scrape: every replica then reports the same, true numbers.
 * Queue depth is the active jobs no worker holds (never claimed, released, or with an expired lease).
 */
export function registerJobMetrics(params: { db: Db; clock: Clock }): () => void {
  const { db, clock } = params;
  return onScrape(async () => {
    const [groups, waiting] = await Promise.all([
      db.agentJob.groupBy({ by: ['status'], _count: { _all: true } }),
      db.agentJob.count({
        where: { status: 'active', OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: clock() } }] },
      }),
    ]);
    const counts = new Map(groups.map((g) => [g.status, g._count._all]));
    for (const status of JOB_STATUSES) jobsByStatus.set({ status }, counts.get(status) ?? 0);
    workerQueueDepth.set(waiting);
  });
}
