import type { Db } from '../db/client.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import type { Clock } from '../clock.js';

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
 * Records a delivery by its X-GitHub-Delivery id, with its work: a delivery to process keeps its payload (`work`) on
 * the same row, so the single insert that GitHub's 200 waits for is also what makes the work durable; one that needs
 * nothing is stored `ignored` at once. Returns false when it was seen before (a redelivery, or the same delivery
 * reaching another replica): the primary key decides, so exactly one process gets true.
 */
export async function recordDelivery(params: {
  db: Db;
  clock: Clock;
  id: string;
  event: string;
  action: string | null;
  work: { payload: string; installationId: number | null } | { ignored: string };
}): Promise<boolean> {
  const { db, clock, id, event, action, work } = params;
  const now = clock();
  const data =
    'ignored' in work
      ? { status: 'ignored', outcome: work.ignored, processedAt: now }
      : { status: 'received', payload: work.payload, installationId: work.installationId };
  try {
    await db.webhookDelivery.create({ data: { id, event, action, receivedAt: now, ...data } });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

export async function findDelivery(db: Db, id: string): Promise<DeliveryRecord | null> {
  const row = await db.webhookDelivery.findUnique({ where: { id } });
  if (!row) return null;
  const { id: rowId, event, action, status, outcome, receivedAt, processedAt } = row;
  return { id: rowId, event, action, status: status as DeliveryStatus, outcome, receivedAt, processedAt };
}

/**
 * Forgets deliveries received before `before`. GitHub offers redelivery of recent deliveries only (days, not
 * months), so old ids no longer protect against anything and the table stays small.
 */
export async function pruneDeliveries(params: { db: Db; before: Date }): Promise<number> {
  const { count } = await params.db.webhookDelivery.deleteMany({ where: { receivedAt: { lt: params.before } } });
  return count;
}
