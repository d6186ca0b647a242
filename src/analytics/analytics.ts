import { createHmac } from 'node:crypto';
import type { AnalyticsConfig } from '../config.js';
import type { DatabaseTarget } from '../db/database-url.js';
import type { Logger } from '../logger.js';
import type { Clock } from '../clock.js';
import { openSql } from './sql.js';
import { AnalyticsStore, type NewEvent } from './store.js';
import { DayCache } from './day-cache.js';
import { createVisitorHasher, type VisitorHasher } from './visitor-hash.js';
import { prepareEvent, type PageView } from './prepare-event.js';
import { ingestedEvents, rejectedEvents } from '../metrics/metrics.js';
import { countViews, countVisitors, type Counts, type RangeCounts, type TimeRange } from './count-range.js';

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: { index: number; error: string }[];
}

export interface Page {
  totals: Counts;
  rows: (Counts & { path: string })[];
  hasMore: boolean;
}

const CLASS_NAMES = ['bot', 'human', 'ai'];

/** Events are folded into the day sets this long after an ingest, so a burst of batches is folded together. */
const FOLD_DELAY_MS = 1000;

/** Visitor analytics for one database: ingest, fold, count. One per process and database. */
export class Analytics {
  readonly store: AnalyticsStore;
  readonly cache: DayCache;
  readonly hasher: VisitorHasher;
  private folding: Promise<unknown> = Promise.resolve();
  private foldTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly params: { target: DatabaseTarget; secret: string; config: AnalyticsConfig; logger: Logger; clock: Clock; autoFold?: boolean },
  ) {
    this.store = new AnalyticsStore(openSql(params.target));
    this.cache = new DayCache(params.config.cacheMb * 1024 * 1024);
    this.hasher = createVisitorHasher({ secret: params.secret, rotation: params.config.saltRotation });
  }

  /** Classifies, hashes and stores page views; bad ones are rejected by index with a reason. */
  async ingest(projectId: string, views: PageView[], indexes?: number[]): Promise<IngestResult> {
    const rejected: IngestResult['rejected'] = [];
    const events: NewEvent[] = [];
    views.forEach((view, i) => {
      const prepared = prepareEvent({ projectId, view, hasher: this.hasher });
      if ('error' in prepared) rejected.push({ index: indexes?.[i] ?? i, error: prepared.error });
      else events.push(prepared);
    });
    const duplicates = events.length ? (await this.store.insertEvents(projectId, events)).size : 0;
    if (events.length) this.scheduleFold();
    const byClass = [0, 0, 0];
    for (const e of events) byClass[e.kind]++;
    byClass.forEach((n, kind) => n && ingestedEvents.inc({ class: CLASS_NAMES[kind] }, n));
    for (const r of rejected) rejectedEvents.inc({ reason: r.error });
    return { accepted: events.length, duplicates, rejected };
  }

  /** Idempotency key of a log line: importing the same line twice stores it once. Keyed, since lines hold IPs. */
  logLineKey(projectId: string, line: string): string {
    return `log:${createHmac('sha256', this.params.secret).update(`${projectId}\0${line}`).digest('base64url').slice(0, 22)}`;
  }

  /** Folds every stored event into the day sets now (one fold at a time per process). */
  fold(): Promise<number> {
    const run = this.folding.then(() => this.store.fold());
    this.folding = run.catch(() => undefined);
    return run;
  }

  private scheduleFold(): void {
    if (this.foldTimer || this.params.autoFold === false) return;
    this.foldTimer = setTimeout(() => {
      this.foldTimer = undefined;
      this.fold().catch((err: unknown) => this.params.logger.error({ err }, 'folding analytics events failed'));
    }, FOLD_DELAY_MS);
    this.foldTimer.unref();
  }

  async visitors(projectId: string, range: TimeRange, page: { limit: number; offset: number }): Promise<Page> {
    await this.fold();
    return this.paginate(projectId, await countVisitors({ store: this.store, cache: this.cache, projectId, range }), page);
  }

  async views(projectId: string, range: TimeRange, page: { limit: number; offset: number }): Promise<Page> {
    await this.fold();
    return this.paginate(projectId, await countViews({ store: this.store, cache: this.cache, projectId, range }), page);
  }

  /** Orders by total descending, then path ascending (code-point order: the same on every database and locale). */
  private async paginate(projectId: string, counts: RangeCounts, { limit, offset }: { limit: number; offset: number }): Promise<Page> {
    const paths = await this.store.paths(projectId, counts.pages.keys());
    const rows = [...counts.pages].map(([id, c]) => ({ path: paths.get(id) ?? `#${id}`, ...c }));
    rows.sort((a, b) => b.total - a.total || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { totals: counts.totals, rows: rows.slice(offset, offset + limit), hasMore: offset + limit < rows.length };
  }

  async close(): Promise<void> {
    clearTimeout(this.foldTimer);
    await this.folding;
    await this.store.close();
  }
}
