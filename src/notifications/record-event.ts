import type { Db, DbTransaction } from '../db/client.js';
import { randomId } from '../ids.js';
import type { EventType } from './event-types.js';

/**
 * Writes an event to the outbox. Call it with the transaction of the change it reports (interactive or batched:
 * the returned Prisma promise fits both), so the event exists exactly when the change does; a dispatcher fans it out
 * to the project's subscriptions later. `data` is the changed objects as the domain holds them, never a secret.
 */
export function recordEvent(
  db: Db | DbTransaction,
  event: { projectId: string; type: EventType; at: Date; data: Record<string, unknown> },
) {
  return db.webhookEvent.create({
    data: {
      id: randomId('evt'),
      projectId: event.projectId,
      type: event.type,
      data: JSON.stringify(event.data),
      createdAt: event.at,
      status: 'pending',
    },
    select: { id: true },
  });
}
