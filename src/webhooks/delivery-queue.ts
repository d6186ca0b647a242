import type { Db } from '../db/client.js';
import type { DatabaseTarget } from '../db/database-url.js';
import type { Clock } from '../clock.js';
import { LeaseQueue, type LeaseHolder } from '../db/lease-queue.js';
import type { DeliveryStatus } from './deliveries.js';

/**
 * The queue over WebhookDelivery: a `received` delivery whose lease has ended (or never began) needs processing.
 * A claim takes a lease and counts an attempt; the holder renews it while it works; a dead holder's lease simply
 * ends and another claim (on any replica) takes the delivery again. Every write checks the owner.
 */
export interface DeliveryQueueParams {
  db: Db;
  database: DatabaseTarget;
  clock: Clock;
  workerId: string;
  leaseMs: number;
}

/** Claims after which a delivery that still did not finish is `failed` (a lost lease counts as an attempt). */
export const MAX_DELIVERY_ATTEMPTS = 5;
/** The wait before the n-th retry: 5 s, 20 s, 80 s, … capped at 10 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 4 ** Math.max(0, attempts - 1), 10 * 60_000);
}

export interface ClaimedDelivery {
  id: string;
  event: string;
  installationId: number | null;
  payload: string;
  attempts: number;
}

/** WebhookDelivery as a lease queue: a `received` delivery whose lease ended (or never began) needs processing. */
const DELIVERIES = new LeaseQueue({ table: 'WebhookDelivery', waiting: 'received', orderBy: 'receivedAt' });

const holder = (params: DeliveryQueueParams): LeaseHolder => ({ ...params, owner: params.workerId });

/** Claims up to `limit` deliveries, oldest first; concurrent claimers never share one (see db/lease-queue.ts). */
export async function claimDeliveries(params: DeliveryQueueParams & { limit: number }): Promise<ClaimedDelivery[]> {
  const ids = (await DELIVERIES.claim({ ...holder(params), limit: params.limit })).map((c) => c.id);
  if (!ids.length) return [];
  const claimed = await params.db.webhookDelivery.findMany({
    where: { id: { in: ids } },
    orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
    select: { id: true, event: true, installationId: true, payload: true, attempts: true },
  });
  const usable: ClaimedDelivery[] = [];
  for (const row of claimed) {
    if (row.attempts > MAX_DELIVERY_ATTEMPTS || row.payload === null) {
      // Every attempt so far lost its lease (the process died each time): give up with the reason.
      await finishClaimed({
        ...params,
        id: row.id,
        status: 'failed',
        outcome:
          row.payload === null
            ? 'its payload is gone (stored before durable deliveries); not processed'
            : `gave up after ${MAX_DELIVERY_ATTEMPTS} attempts that never finished (each process stopped mid-way)`,
      });
      continue;
    }
    usable.push({ ...row, payload: row.payload });
  }
  return usable;
}

/** Extends the holder's lease; false when it was lost (taken over, or already finished). */
export async function renewDeliveryLease(params: DeliveryQueueParams & { id: string }): Promise<boolean> {
  return DELIVERIES.renew({ ...holder(params), id: params.id });
}

/** Ends a claimed delivery: the outcome is kept, the payload is dropped. False when the lease was lost meanwhile. */
export async function finishClaimed(
  params: DeliveryQueueParams & { id: string; status: Exclude<DeliveryStatus, 'received'>; outcome: string },
): Promise<boolean> {
  const { count } = await params.db.webhookDelivery.updateMany({
    where: DELIVERIES.held(params.id, params.workerId),
    data: {
      status: params.status,
      outcome: params.outcome.slice(0, 500),
      processedAt: params.clock(),
      payload: null,
      leaseOwner: null,
      leaseExpiresAt: null,
    },
  });
  return count === 1;
}

/**
 * A failed attempt: retried after a backoff while attempts remain and the error may pass (`final` says it will not),
 * else `failed` with the error. Returns what happened, or 'lost' when the lease was no longer held.
 */
export async function failAttempt(
  params: DeliveryQueueParams & { id: string; attempts: number; error: string; final?: boolean },
): Promise<'retry' | 'failed' | 'lost'> {
  const { db, clock, workerId, id, attempts, error } = params;
  if (params.final || attempts >= MAX_DELIVERY_ATTEMPTS) {
    const ended = await finishClaimed({
      ...params,
      status: 'failed',
      outcome: `failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${error}`,
    });
    return ended ? 'failed' : 'lost';
  }
  const { count } = await db.webhookDelivery.updateMany({
    where: DELIVERIES.held(id, workerId),
    data: { outcome: `attempt ${attempts} failed: ${error}`.slice(0, 500) },
  });
  if (count === 0) return 'lost';
  const retryAt = new Date(clock().getTime() + retryDelayMs(attempts));
  return (await DELIVERIES.release({ ...holder(params), id, retryAt })) ? 'retry' : 'lost';
}
