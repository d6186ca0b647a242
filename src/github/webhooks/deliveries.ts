import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';

export type DeliveryStatus = 'received' | 'done' | 'ignored' | 'failed';

export interface DeliveryRecord {
  id: string;
  event: string;
  action: string | null;
  status: DeliveryStatus;
  outcome: string | null;
  receivedAt: Date;
  processedAt: Date | null;
}

/**
 * Records a delivery by its X-GitHub-Delivery id. Returns false when it was seen before (a redelivery, or the
 * same delivery reaching another replica): the primary key decides, so exactly one process gets true.
 */
export async function recordDelivery(params: { db: Db; clock: Clock; id: string; event: string; action: string | null }): Promise<boolean> {
  const { db, clock, id, event, action } = params;
  try {
    await db.webhookDelivery.create({ data: { id, event, action, status: 'received', receivedAt: clock() } });
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002' || /unique/i.test(String((err as Error).message))) return false;
    throw err;
  }
}

export async function finishDelivery(params: { db: Db; clock: Clock; id: string; status: Exclude<DeliveryStatus, 'received'>; outcome: string }): Promise<void> {
  await params.db.webhookDelivery.update({
    where: { id: params.id },
    data: { status: params.status, outcome: params.outcome.slice(0, 500), processedAt: params.clock() },
  });
}

export async function findDelivery(db: Db, id: string): Promise<DeliveryRecord | null> {
  const row = await db.webhookDelivery.findUnique({ where: { id } });
  return row ? { ...row, status: row.status as DeliveryStatus } : null;
}

/**
 * Forgets deliveries received before `before`. GitHub offers redelivery of recent deliveries only (days, not
 * months), so old ids no longer protect against anything and the table stays small.
 */
export async function pruneDeliveries(params: { db: Db; before: Date }): Promise<number> {
  const { count } = await params.db.webhookDelivery.deleteMany({ where: { receivedAt: { lt: params.before } } });
  return count;
}

/**
 * Deliveries still `received` long after they arrived were cut off by a crash or a kill: at-most-once means they are
 * not run again, but they are marked so an operator can see which GitHub events went unanswered.
 */
export async function markInterrupted(params: { db: Db; clock: Clock; receivedBefore: Date }): Promise<number> {
  const { count } = await params.db.webhookDelivery.updateMany({
    where: { status: 'received', receivedAt: { lt: params.receivedBefore } },
    data: { status: 'failed', outcome: 'interrupted before it finished (the process stopped); not retried', processedAt: params.clock() },
  });
  return count;
}
