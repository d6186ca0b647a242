import type { Clock } from '../clock.js';
import type { Db, DbTransaction } from './client.js';
import type { DatabaseTarget } from './database-url.js';

/**
 * Which rows a lease queue hands out. The owning module keeps its table; the queue only needs the lease columns every
 * queued table has: `id`, `status`, `leaseOwner`, `leaseExpiresAt` (a lost lease's end, or a retry's "not before")
 * and `attempts` (claims so far).
 */
export interface LeaseTable {
  /** the table's SQL name, e.g. "AgentJob" */
  table: string;
  /** the status of a row waiting for work; any other status takes it out of the queue */
  waiting: string;
  /** the column claims go by, oldest first */
  orderBy: string;
  /**
   * A non-null column holding when a claim may take the row (written with it, then kept by the queue: the lease's
   * end while held, the retry time or now when released). Claims then read rows by it, earliest due first, so an
   * index on (…, status, due) hands them out without sorting every waiting row; `orderBy` is not used.
   */
  due?: string;
  /** columns that take the claim time too (a job's `updatedAt`) */
  stamp?: readonly string[];
}

/** Who acts on the queue, and for how long a claim or renewal holds. */
export interface LeaseHolder {
  db: Db | DbTransaction;
  database: Pick<DatabaseTarget, 'provider'>;
  clock: Clock;
  owner: string;
  leaseMs: number;
}

export interface Claimed {
  id: string;
  /** claims of this row so far, this one included */
  attempts: number;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The lease rule, written once for every queued table (agent jobs, GitHub deliveries, outgoing webhook deliveries).
 * A claim takes rows whose lease ended (or never began) and counts an attempt; the holder renews while it works; a
 * dead holder's lease simply ends and any process claims the row again. Each claim is one statement: on PostgreSQL
 * its rows are locked with SKIP LOCKED, so concurrent claimers pass each other by; on SQLite the statement is a
 * conditional update under the database's single writer lock. Every write after the claim names the owner in its
 * WHERE, so a holder that lost its lease changes nothing.
 */
export class LeaseQueue {
  private readonly q: Record<'table' | 'waiting' | 'orderBy', string> & { stamp: readonly string[]; due?: string };

  constructor(table: LeaseTable) {
    for (const name of [table.table, table.orderBy, ...(table.due ? [table.due] : []), ...(table.stamp ?? [])])
      if (!IDENTIFIER.test(name)) throw new Error(`lease queue: "${name}" is not a plain SQL identifier`);
    this.q = { ...table, stamp: table.stamp ?? [] };
  }

  /**
   * Claims up to `limit` waiting rows whose lease is free, oldest first; each claim counts an attempt. `skip` leaves
   * out rows whose `column` holds one of `values` (a caller's busy keys, e.g. receivers already at their limit);
   * `only` takes rows whose `column` holds `value` alone (one key's rows, e.g. one receiver's messages).
   */
  async claim(
    holder: LeaseHolder & {
      limit: number;
      skip?: { column: string; values: readonly string[] };
      only?: { column: string; value: string };
    },
  ): Promise<Claimed[]> {
    if (holder.limit <= 0) return [];
    const { skip, only } = holder;
    for (const column of [skip?.column, only?.column])
      if (column !== undefined && !IDENTIFIER.test(column))
        throw new Error(`lease queue: "${column}" is not a plain SQL identifier`);
    const now = holder.clock();
    const sql = new Sql(holder.database.provider);
    const { table, orderBy, stamp, due } = this.q;
    const leaseEnd = new Date(now.getTime() + holder.leaseMs);
    const set = [
      `"leaseOwner" = ${sql.arg(holder.owner)}`,
      `"leaseExpiresAt" = ${sql.time(leaseEnd)}`,
      // a holder that dies leaves the row due again when its lease ends
      ...(due ? [`"${due}" = ${sql.time(leaseEnd)}`] : []),
      `"attempts" = "attempts" + 1`,
      ...stamp.map((column) => `"${column}" = ${sql.time(now)}`),
    ];
    // arguments are numbered in the order they are added, which must be the order they appear in the statement
    let free = `"status" = ${sql.arg(this.q.waiting)}`;
    if (only) free += ` AND "${only.column}" = ${sql.arg(only.value)}`;
    free += due
      ? ` AND "${due}" <= ${sql.time(now)}`
      : ` AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ${sql.time(now)})`;
    if (skip?.values.length) free += ` AND "${skip.column}" NOT IN (${skip.values.map((v) => sql.arg(v)).join(', ')})`;
    const lock = sql.postgres ? ' FOR UPDATE SKIP LOCKED' : '';
    const order = due ?? orderBy;
    const pick = `SELECT "id" FROM "${table}" WHERE ${free} ORDER BY "${order}" ASC, "id" ASC LIMIT ${sql.arg(holder.limit)}${lock}`;
    const rows = await holder.db.$queryRawUnsafe<{ id: string; attempts: number | bigint }[]>(
      `UPDATE "${table}" SET ${set.join(', ')} WHERE "id" IN (${pick}) RETURNING "id", "attempts"`,
      ...sql.args,
    );
    return rows.map((r) => ({ id: r.id, attempts: Number(r.attempts) }));
  }

  /** Extends the holder's lease; false when it was lost (taken over, or the row left the queue). */
  async renew(holder: LeaseHolder & { id: string }): Promise<boolean> {
    const sql = new Sql(holder.database.provider);
    const until = new Date(holder.clock().getTime() + holder.leaseMs);
    const set = [
      `"leaseExpiresAt" = ${sql.time(until)}`,
      ...(this.q.due ? [`"${this.q.due}" = ${sql.time(until)}`] : []),
    ];
    return (await this.write(holder, sql, set.join(', '))) === 1;
  }

  /**
   * Gives a held row back to the queue: claimable again at `retryAt` (a backoff), else at once. `refund` uncounts the
   * claim's attempt (a graceful shutdown is not an attempt). False when the lease was no longer held.
   */
  async release(
    holder: Omit<LeaseHolder, 'leaseMs' | 'clock'> & {
      id: string;
      retryAt?: Date;
      refund?: boolean;
      /** now, for a table with a `due` column released without a retry time */
      now?: Date;
    },
  ): Promise<boolean> {
    const sql = new Sql(holder.database.provider);
    const { due } = this.q;
    if (due && !holder.retryAt && !holder.now)
      throw new Error(`lease queue: releasing a ${this.q.table} row needs retryAt or now`);
    const set = [
      `"leaseOwner" = NULL`,
      `"leaseExpiresAt" = ${holder.retryAt ? sql.time(holder.retryAt) : 'NULL'}`,
      ...(due ? [`"${due}" = ${sql.time((holder.retryAt ?? holder.now) as Date)}`] : []),
      ...(holder.refund ? [`"attempts" = "attempts" - 1`] : []),
    ];
    return (await this.write(holder, sql, set.join(', '))) === 1;
  }

  /**
   * The WHERE of any other write by the holder (finishing the row, storing its outcome), for the owning module's own
   * Prisma calls: it changes the row only while this owner holds it and it still waits.
   */
  held(id: string, owner: string): { id: string; leaseOwner: string; status: string } {
    return { id, leaseOwner: owner, status: this.q.waiting };
  }

  private async write(holder: Pick<LeaseHolder, 'db' | 'owner'> & { id: string }, sql: Sql, set: string) {
    const where = `"id" = ${sql.arg(holder.id)} AND "leaseOwner" = ${sql.arg(holder.owner)} AND "status" = ${sql.arg(this.q.waiting)}`;
    return holder.db.$executeRawUnsafe(`UPDATE "${this.q.table}" SET ${set} WHERE ${where}`, ...sql.args);
  }
}

/** Positional arguments in each database's spelling ($1 on PostgreSQL, ? on SQLite). */
class Sql {
  readonly args: unknown[] = [];
  readonly postgres: boolean;
  constructor(provider: DatabaseTarget['provider']) {
    this.postgres = provider === 'postgresql';
  }
  arg(value: unknown): string {
    this.args.push(value);
    return this.postgres ? `$${this.args.length}` : '?';
  }
  /** Both drivers store a Date the way Prisma does (ISO text on SQLite), so raw and Prisma writes compare alike. */
  time(value: Date): string {
    return this.postgres ? `${this.arg(value)}::timestamp(3)` : this.arg(value);
  }
}

export interface Heartbeat {
  /** renews now (the holder has reason to think the row changed) rather than at the next beat */
  beat(): void;
  stop(): void;
}

/**
 * Renews a lease every `everyMs` while its holder works. `renew` answers `true` while the lease is held; anything
 * else is why it is not, handed to `lost` once, after which the beat stops (renewing a lost lease is pointless).
 * One renewal at a time: a slow database does not pile renewals up.
 */
export function startHeartbeat<Why = false>(params: {
  everyMs: number;
  renew: () => Promise<true | Why>;
  lost?: (why: Why) => void;
  failed: (err: unknown) => void;
}): Heartbeat {
  let inFlight = false;
  let again = false;
  let stopped = false;
  const beat = () => {
    if (stopped) return;
    // a beat asked for during a renewal runs after it: the caller may know of a change the running one missed
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    params
      .renew()
      .then(
        (held) => {
          if (held === true || stopped) return;
          stop();
          params.lost?.(held);
        },
        (err: unknown) => params.failed(err),
      )
      .finally(() => {
        inFlight = false;
        if (again) {
          again = false;
          beat();
        }
      });
  };
  const timer = setInterval(beat, params.everyMs);
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return { beat, stop };
}
