import { setTimeout as sleep } from 'node:timers/promises';

/** How long a statement keeps trying for a lock another connection holds, as SQLite's own busy timeout did. */
export const SQLITE_BUSY_LIMIT_MS = 10_000;

const isBusy = (err: unknown) =>
  typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('SQLITE_BUSY');

/**
 * Runs `statement` until it gets past SQLite's lock, waiting between tries *asynchronously*. better-sqlite3 waits
 * for a busy lock synchronously, blocking the event loop — and when the lock's holder is this same process (Prisma's
 * connection in the middle of an interactive transaction, such as a job claim), it can only let go when the event
 * loop runs, so the wait always ran to the full timeout: a 10 s stall of every request, then an error. Here the
 * connection's own busy timeout is zero and the waiting happens between tries, so the holder finishes meanwhile.
 * Only a statement that failed as a whole is retried: BEGIN, COMMIT (which stays pending on SQLITE_BUSY) and
 * statements outside a transaction.
 */
export async function retryWhileBusy<T>(statement: () => T | Promise<T>, limitMs = SQLITE_BUSY_LIMIT_MS): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (let pauseMs = 1; ; pauseMs = Math.min(pauseMs * 2, 50)) {
    try {
      return await statement();
    } catch (err) {
      if (!isBusy(err) || Date.now() >= deadline) throw err;
    }
    await sleep(pauseMs);
  }
}
