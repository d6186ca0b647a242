import { setTimeout as sleep } from 'node:timers/promises';
import type { ClickHouseClient } from '@clickhouse/client';
import type { ClickHouseConfig } from '../../config.js';
import type { Logger } from '../../logger.js';
import { clickhouseOutboxDepth } from '../../metrics/metrics.js';
import { Dictionaries } from '../store/dictionaries.js';
import type { Sql } from '../store/sql.js';
import type { NewEvent } from '../store/write-events.js';
import { openClickHouse } from './clickhouse-client.js';
import { CoalescedRuns } from '../coalesced-runs.js';
import { ClickHouseRefused, migrateClickHouse } from './migrate-clickhouse.js';
import { shipOutbox, vacuumOutbox } from './ship-outbox.js';
import { outboxDepth, pendingViews, stillPending, writeOutbox } from './write-outbox.js';
import type { ClickHouseSource } from './clickhouse-reports.js';
import type { TimeRange } from '../../calendar.js';
import { Unavailable } from '../../errors.js';

/** After an ingest the outbox is shipped this soon, so a burst of batches goes together. */
const SHIP_DELAY_MS = 200;
/** While ClickHouse fails, shipping is retried this often. */
const RETRY_MS = 5000;
/** Most waiting views a report adds to ClickHouse's; past it (a backlog after an outage) the report asks for a retry. */
const PENDING_LIMIT = 50_000;
/** A report read while a shipment sent some of the views it added is read again, this often, at most this many times. */
const READ_RETRY_MS = 50;
const READ_ATTEMPTS = 40;
/** The outbox is vacuumed once shipments have deleted this many rows since its last vacuum (see vacuumOutbox). */
const VACUUM_AFTER_ROWS = 500_000;

/**
 * Page views on ClickHouse: ingest writes them to the outbox of the primary database (see write-outbox.ts), and
 * this ships the outbox in the background (ship-outbox.ts), at start-up, after each ingest and, while ClickHouse is
 * unreachable, every few seconds. `reachable` is what the last attempt found; `refusal`, why the database is refused
 * when ClickHouse answered but a migration's check refused what it holds (retried as unreachable is, in case an
 * operator empties it in place).
 */
export class ClickHouseEvents {
  readonly client: ClickHouseClient;
  /** visitor ids for the outbox (write-outbox.ts): the primary's numbering, cached as the embedded store caches it */
  private readonly dictionaries = new Dictionaries();
  private depthCounted = 0;
  private addedSince = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly shipments = new CoalescedRuns(() => this.shipOnce());
  private readonly vacuums = new CoalescedRuns(() => vacuumOutbox(this.params.sql));
  private shippedSinceVacuum = 0;
  private closed = false;
  private migrating: Promise<number[]> | undefined;
  /** where this process's last shipped batch began (see shipOutbox) */
  private readonly cursor = { id: 0n };
  reachable: boolean | undefined;
  lastError: string | undefined;
  refusal: string | undefined;

  constructor(
    private readonly params: {
      sql: Sql;
      config: ClickHouseConfig;
      logger: Logger;
      client?: ClickHouseClient;
      /** false: ship only when ship() is called (tests that ship step by step) */
      autoShip?: boolean;
      /** page views per shipped batch (tests) */
      shipBatchSize?: number;
      /** rows shipped between vacuums of the outbox (tests) */
      vacuumAfterRows?: number;
    },
  ) {
    this.client = params.client ?? openClickHouse(params.config);
  }

  get database(): string {
    return this.params.config.database;
  }

  /** Creates or migrates the schema and ships what a previous process left; a ClickHouse still down is retried. */
  async start(): Promise<void> {
    await this.countDepth(0n);
    try {
      const ran = await this.migrate();
      if (ran.length) this.params.logger.info({ ran }, 'applied ClickHouse migrations');
      this.reachable = true;
      this.refusal = undefined;
    } catch (err) {
      this.markUnreachable(err);
    }
    this.schedule(0);
  }

  insertEvents(projectId: string, events: NewEvent[]): Promise<Set<number>> {
    return writeOutbox({
      sql: this.params.sql,
      dictionaries: this.dictionaries,
      projectId,
      events,
      depth: () => this.depth,
      limit: this.params.config.outboxLimit,
      onStored: (rows) => {
        this.addedSince += rows;
      },
    }).then((duplicates) => {
      clickhouseOutboxDepth.set(this.depth);
      this.schedule(SHIP_DELAY_MS);
      return duplicates;
    });
  }

  /**
   * Brings the schema up to date, once at a time in this process: a shipment that starts while start-up still
   * migrates waits for that run instead of running the same steps beside it (harmless, every step is idempotent,
   * but each would be recorded twice and a backfill done twice).
   */
  private migrate(): Promise<number[]> {
    this.migrating ??= migrateClickHouse(this.client, this.params.config).finally(() => {
      this.migrating = undefined;
    });
    return this.migrating;
  }

  /** Page views waiting in the outbox (as last counted, plus those this process added since). */
  get depth(): number {
    return this.depthCounted + this.addedSince;
  }

  /**
   * Ships the whole outbox now (one shipment at a time per process; see CoalescedRuns: every ingest of a burst asks
   * for one, and a report behind a long shipment waited for each of those in turn); rejects when ClickHouse fails.
   */
  ship(): Promise<number> {
    return this.shipments.run();
  }

  private async shipOnce(): Promise<number> {
    try {
      if (this.reachable !== true) await this.migrate();
      const moved = await shipOutbox({
        sql: this.params.sql,
        client: this.client,
        database: this.database,
        batchSize: this.params.shipBatchSize,
        cursor: this.cursor,
        // a long shipment (a backlog after an outage) lowers the depth batch by batch: the outbox limit and
        // /readyz count what still waits, not what waited when the shipment began
        onShipped: (rows) => {
          const counted = Math.min(rows, this.depthCounted);
          this.depthCounted -= counted;
          this.addedSince = Math.max(0, this.addedSince - (rows - counted));
          clickhouseOutboxDepth.set(this.depth);
        },
      });
      this.reachable = true;
      this.lastError = undefined;
      this.refusal = undefined;
      this.afterShipped(moved);
      return moved;
    } catch (err) {
      this.markUnreachable(err);
      throw err;
    } finally {
      await this.countDepth(this.cursor.id).catch(() => undefined);
    }
  }

  /**
   * Counts the outbox from `from` and forgets what this process added before: in a transaction, which this process's
   * writes never overlap (each adds to `addedSince` inside its own), so every write is counted once, by the query or
   * after it.
   */
  private async countDepth(from: bigint): Promise<void> {
    await this.params.sql.transaction(async (tx) => {
      this.depthCounted = await outboxDepth(tx, from);
      this.addedSince = 0;
    });
    clickhouseOutboxDepth.set(this.depth);
  }

  /** Vacuums the outbox in the background once enough shipped rows have been deleted since the last time. */
  private afterShipped(moved: number) {
    this.shippedSinceVacuum += moved;
    if (this.shippedSinceVacuum < (this.params.vacuumAfterRows ?? VACUUM_AFTER_ROWS)) return;
    this.shippedSinceVacuum = 0;
    this.vacuums
      .run()
      .catch((err: unknown) => this.params.logger.warn({ err }, 'vacuuming the ClickHouse outbox failed'));
  }

  /**
   * Runs a report on ClickHouse with the project's views of the range still waiting in the outbox added to it, and
   * writes nothing: shipping runs on its own schedule. Exact: ClickHouse holds every view shipped before the
   * outbox was read, and the answer is kept only when none of the views read was named for a shipment by the time
   * it is complete (else it is read again), so no view is missed or counted twice.
   */
  async read<T>(projectId: string, range: TimeRange, report: (source: ClickHouseSource) => Promise<T>): Promise<T> {
    if (this.refusal) throw new Unavailable(refusedDatabase(this.refusal));
    for (let attempt = 1; ; attempt++) {
      const waiting = await pendingViews(this.params.sql, projectId, range);
      if (waiting.views.length > PENDING_LIMIT) {
        throw new Unavailable(
          `ClickHouse (CLICKHOUSE_URL) is catching up: ${waiting.views.length} page view(s) of the range wait in the outbox; try again later`,
          5,
        );
      }
      // a batch named by a shipment that failed stays named while ClickHouse is down: no use waiting for it
      if (waiting.named && this.reachable === false && !(await this.ping().catch(() => false)))
        throw unreachable(new Error(this.lastError ?? 'no answer'));
      if (!waiting.named) {
        const answer = await report({
          client: this.client,
          database: this.database,
          projectId,
          range,
          pending: waiting.views,
        }).catch((err: unknown) => {
          throw unreachable(err);
        });
        if (await stillPending(this.params.sql, projectId, range, waiting)) return answer;
      }
      if (attempt === READ_ATTEMPTS)
        throw new Unavailable('Page views of the range are being shipped to ClickHouse; try again', 1);
      await sleep(READ_RETRY_MS);
    }
  }

  /** Whether ClickHouse answers now. */
  async ping(): Promise<boolean> {
    const result = await this.client.ping();
    return result.success;
  }

  private markUnreachable(err: unknown) {
    if (err instanceof ClickHouseRefused) {
      if (this.refusal !== err.message)
        this.params.logger.error(
          { reason: err.message },
          'the ClickHouse database is refused; page views wait in the outbox',
        );
      this.refusal = err.message;
    } else if (this.reachable !== false)
      this.params.logger.warn({ err }, 'ClickHouse is not reachable; page views wait in the outbox');
    this.reachable = false;
    this.lastError = (err as Error)?.message ?? String(err);
  }

  private schedule(delayMs: number) {
    if (this.timer || this.closed || this.params.autoShip === false) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.ship().then(
        () => {
          if (this.depth > 0) this.schedule(SHIP_DELAY_MS);
        },
        () => this.schedule(RETRY_MS),
      );
    }, delayMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.shipments.settled();
    await this.vacuums.settled();
    await this.client.close();
  }
}

/** What /readyz and the reports say while ClickHouse's database is refused (see ClickHouseRefused). */
export const refusedDatabase = (reason: string) =>
  `ClickHouse (CLICKHOUSE_URL) answers, but its database is refused: ${reason}`;

const unreachable = (err: unknown) =>
  new Unavailable(
    `ClickHouse (CLICKHOUSE_URL), where page views are stored, is not reachable (${(err as Error).message}); try again later`,
    5,
  );
