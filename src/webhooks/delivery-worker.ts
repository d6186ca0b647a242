import { randomId } from '../ids.js';
import { startHeartbeat } from '../db/lease-queue.js';
import { createPollingWorker } from '../db/polling-worker.js';
import { statusOf } from '../github/github-app.js';
import type { DatabaseTarget } from '../db/database-url.js';
import {
  claimDeliveries,
  failAttempt,
  finishClaimed,
  renewDeliveryLease,
  type ClaimedDelivery,
  type DeliveryQueueParams,
} from './delivery-queue.js';
import { processDelivery } from './webhook-app.js';
import type { WebhookDeps } from './webhook-deps.js';

/** Deliveries one process works on at once. */
const CONCURRENCY = 4;

export interface DeliveryWorker {
  /** a delivery was stored in this process: claim now rather than at the next poll */
  wake(): void;
  start(): void;
  /** stops claiming, waits for the deliveries in hand, and gives back any a handler has not finished */
  stop(): Promise<void>;
}

/**
 * Processes stored deliveries in this process: claims them under a lease (see delivery-queue.ts), renews the lease
 * while a handler runs, and records the outcome; an error is retried with backoff up to the attempt limit.
 */
export function createDeliveryWorker(
  deps: WebhookDeps & { database: DatabaseTarget; leaseMs: number; heartbeatMs: number; pollMs: number },
): DeliveryWorker {
  const queue: DeliveryQueueParams = {
    db: deps.db,
    database: deps.database,
    clock: deps.clock,
    workerId: randomId('dlv'),
    leaseMs: deps.leaseMs,
  };
  const inHand = new Set<Promise<void>>();

  const work = async (claimed: ClaimedDelivery) => {
    const log = deps.logger.child({ delivery: claimed.id, event: claimed.event, attempt: claimed.attempts });
    const heartbeat = startHeartbeat({
      everyMs: deps.heartbeatMs,
      renew: () => renewDeliveryLease({ ...queue, id: claimed.id }),
      failed: (err) => log.warn({ err }, 'could not renew a webhook delivery lease'),
    });
    try {
      const result = await processDelivery(deps, claimed);
      heartbeat.stop();
      const ended = await finishClaimed({ ...queue, id: claimed.id, ...result });
      if (ended) log.info({ status: result.status, outcome: result.outcome }, 'webhook delivery processed');
      else log.warn('webhook delivery lease was lost before it finished; another claim decides its outcome');
    } catch (err) {
      heartbeat.stop();
      const error = (err as Error)?.message ?? String(err);
      // GitHub refusing a request (403, 404, 422) refuses it again: only server errors, rate limits and network
      // failures are worth another attempt.
      const status = statusOf(err);
      const final = status !== undefined && status >= 400 && status < 500 && status !== 429;
      const next = await failAttempt({ ...queue, id: claimed.id, attempts: claimed.attempts, error, final });
      log.error({ err, next }, 'webhook delivery failed');
    }
  };

  /** One turn: claims deliveries up to the free slots and starts them; true when it filled them (more may wait). */
  const turn = async () => {
    const free = CONCURRENCY - inHand.size;
    if (free <= 0) return false;
    const claimed = await claimDeliveries({ ...queue, limit: free });
    for (const c of claimed) {
      const task = work(c)
        .catch((err: unknown) => deps.logger.error({ err, delivery: c.id }, 'webhook delivery bookkeeping failed'))
        .finally(() => {
          inHand.delete(task);
          worker.wake();
        });
      inHand.add(task);
    }
    return claimed.length === free;
  };

  const worker = createPollingWorker({
    pollMs: deps.pollMs,
    turn,
    failed: (err) => deps.logger.error({ err }, 'could not claim webhook deliveries'),
  });

  return {
    wake: worker.wake,
    start: worker.start,
    async stop() {
      await worker.stop();
      await Promise.allSettled([...inHand]);
    },
  };
}
