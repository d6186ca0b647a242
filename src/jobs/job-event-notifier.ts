import pg from 'pg';
import type { Db } from '../db/client.js';
import type { DatabaseTarget } from '../db/database-url.js';
import type { Logger } from '../logger.js';

/**
 * Tells a process's open event streams that their job has new events, so that a stream reads the database only when
 * there is something to read: 500 idle streams cost nothing but their sockets. One per process.
 */
export interface JobEventNotifier {
  /** `listener` runs when the job may have new events (or a new status); returns how to stop listening */
  subscribe(jobId: string, listener: () => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'scribe_job_events';
const POLL_MS = 250;
const RECONNECT_MS = 1_000;

/**
 * PostgreSQL: one LISTEN connection, fed by the trigger on AgentJobEvent (every process's writes reach every
 * process). SQLite (one process): one loop that asks which jobs have events past the last one it saw.
 */
export function createJobEventNotifier(params: {
  db: Db;
  database: DatabaseTarget;
  logger: Logger;
  pollMs?: number;
}): JobEventNotifier {
  const listeners = new Map<string, Set<() => void>>();
  const wake = (jobId: string) => {
    for (const listener of listeners.get(jobId) ?? []) listener();
  };
  const wakeAll = () => {
    for (const set of listeners.values()) for (const listener of set) listener();
  };
  const source =
    params.database.provider === 'postgresql'
      ? listenForEvents({ url: params.database.url, logger: params.logger, wake, wakeAll })
      : pollForEvents({ db: params.db, logger: params.logger, pollMs: params.pollMs ?? POLL_MS, wake, wakeAll });
  return {
    subscribe(jobId, listener) {
      let set = listeners.get(jobId);
      if (!set) listeners.set(jobId, (set = new Set()));
      set.add(listener);
      source.watching(true);
      return () => {
        set.delete(listener);
        if (!set.size) listeners.delete(jobId);
        if (!listeners.size) source.watching(false);
      };
    },
    close: async () => {
      listeners.clear();
      await source.close();
    },
  };
}

/** Where notifications come from; it runs only while someone listens. */
interface Source {
  watching(anyone: boolean): void;
  close(): Promise<void>;
}

function listenForEvents(params: {
  url: string;
  logger: Logger;
  wake: (jobId: string) => void;
  wakeAll: () => void;
}): Source {
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = () => {
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString: params.url });
      next.on('notification', (message) => message.payload && params.wake(message.payload));
      next.on('error', (err) => {
        if (client !== next) return; // a failed connect is handled below
        // A dropped connection may have missed notifications: streams re-read once it is back.
        params.logger.warn({ err }, 'job event listener lost its connection; reconnecting');
        client = null;
        void next.end().catch(() => undefined);
        if (!closed) retry = setTimeout(() => void connect(), RECONNECT_MS);
      });
      try {
        await next.connect();
        await next.query(`LISTEN ${CHANNEL}`);
        if (closed) {
          await next.end();
        } else {
          client = next;
          // what streams read before the LISTEN took hold (or while it was down) is read again
          params.wakeAll();
        }
      } catch (err) {
        params.logger.warn({ err }, 'job event listener could not connect; streams fall back to their slow check');
        await next.end().catch(() => undefined);
        if (!closed) retry = setTimeout(() => void connect(), RECONNECT_MS);
      } finally {
        connecting = null;
      }
    })();
    return connecting;
  };
  return {
    // The connection stays once made: the next stream usually follows soon.
    watching(anyone) {
      if (anyone && !client && !connecting && !closed) void connect();
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await connecting;
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}

function pollForEvents(params: {
  db: Db;
  logger: Logger;
  pollMs: number;
  wake: (jobId: string) => void;
  wakeAll: () => void;
}): Source {
  let timer: NodeJS.Timeout | undefined;
  // each start of the loop is a new run, so a look still in flight from a stopped run ends there
  let run = 0;
  let lastSeen = 0;
  const look = async (current: number, first: boolean) => {
    try {
      if (first) {
        const top = await params.db.agentJobEvent.aggregate({ _max: { id: true } });
        lastSeen = Number(top._max.id ?? 0);
        // what a stream read before this baseline was taken is read again, so nothing falls in between
        params.wakeAll();
      } else {
        const jobs = await params.db.agentJobEvent.groupBy({
          by: ['jobId'],
          where: { id: { gt: lastSeen } },
          _max: { id: true },
        });
        for (const job of jobs) {
          lastSeen = Math.max(lastSeen, Number(job._max.id ?? 0));
          params.wake(job.jobId);
        }
      }
    } catch (err) {
      params.logger.warn({ err }, 'could not look for new job events');
    }
    if (current === run) timer = setTimeout(() => void look(current, false), params.pollMs);
  };
  let active = false;
  return {
    watching(anyone) {
      if (anyone === active) return;
      active = anyone;
      run++;
      clearTimeout(timer);
      if (anyone) void look(run, true);
    },
    async close() {
      active = false;
      run++;
      clearTimeout(timer);
    },
  };
}
