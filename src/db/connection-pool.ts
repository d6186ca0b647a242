/**
 * How long a pooled PostgreSQL connection (Prisma's and the analytics module's) may sit idle before it is closed:
 * minutes, not pg's default ten seconds, so a request after a quiet spell does not pay for a new server process, its
 * catalog caches and its prepared statements again (a third of one outcome read, 30–50 ms).
 */
export const IDLE_CONNECTION_MS = 5 * 60_000;

/**
 * The idle rule of both PostgreSQL pools, as pg's pool options: connections kept IDLE_CONNECTION_MS, and an idle one
 * does not keep a finished process (a CLI command) from exiting.
 */
export const IDLE_POOL_OPTIONS = { idleTimeoutMillis: IDLE_CONNECTION_MS, allowExitOnIdle: true } as const;
