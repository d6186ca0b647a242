import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { randomHex } from '../ids.js';

const SECRET_KEY = 'server_secret';

/**
 * The server secret keys every hash Scribe stores (visitor ids). SCRIBE_SECRET wins; otherwise a secret is
 * generated on first start and kept in the database, so restarts and replicas agree on it. Concurrent first
 * starts race on the insert; the loser reads the winner's value.
 */
export async function resolveServerSecret(params: {
  db: Db;
  configured: string | undefined;
  clock: Clock;
}): Promise<string> {
  const { db, configured, clock } = params;
  if (configured) return configured;
  const existing = await db.setting.findUnique({ where: { key: SECRET_KEY } });
  if (existing) return existing.value;
  try {
    await db.setting.create({ data: { key: SECRET_KEY, value: randomHex(32), updatedAt: clock() } });
  } catch {
    // another process created it first
  }
  const stored = await db.setting.findUniqueOrThrow({ where: { key: SECRET_KEY } });
  return stored.value;
}
