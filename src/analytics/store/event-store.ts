import type { TimeRange } from '../../calendar.js';
import type { Sql } from './sql.js';
import { Dictionaries } from './dictionaries.js';
import { foldEvents } from './fold-events.js';
import { planRange, type RangePlan } from './split-range.js';
import { rebuildDerived, type RebuildProgress } from './rebuild-derived.js';
import { insertEvents, type NewEvent } from './write-events.js';
import {
  dayGenerations,
  dayVersions,
  loadDaySets,
  loadDayPageSets,
  daysViews,
  type StoredDaySets,
} from './read-days.js';
import { dayEvents, pageEvents, rawEvents } from './read-events.js';
import type { DayEvents } from './page-day-views.js';
import { agentEdgeEvents } from './ai-traffic-queries.js';
import { loadAgentDays } from './rollups/agent-days.js';
import { readSiteDays } from './rollups/site-days.js';
import { aiMissCounts, insertAiMisses, type StoredMiss } from './ai-misses.js';
import { signalsVersion } from './signals-version.js';
import { pageDays } from './rollups/page-days.js';

/**
 * The analytics tables, one query family per file beside this one (each with its SQLite and PostgreSQL variants
 * together): this class holds the connection and the per-process dictionary cache the families share, and is what
 * ingest and the reports are handed. Raw events are the source of truth; `fold()` derives the per-day sets and view
 * counts from every event after a stored watermark, in the same transaction that advances it, so the derived tables
 * always equal a function of a prefix of the raw events — never half of a batch.
 */
export class AnalyticsStore {
  constructor(
    private readonly sql: Sql,
    private readonly dictionaries = new Dictionaries(),
  ) {}

  /**
   * Runs `read` over one snapshot of the database (see Sql.snapshot): every part of an answer — the watermark, the
   * derived rows, the raw events — comes from the same committed state, and no write lock is taken.
   */
  snapshot<T>(read: (store: AnalyticsStore) => Promise<T>): Promise<T> {
    return this.sql.snapshot((tx) => read(new AnalyticsStore(tx, this.dictionaries)));
  }

  /** How the range is answered: derived whole days and raw rows (see split-range.ts planRange). */
  planRange(projectId: string, range: TimeRange): Promise<RangePlan> {
    return planRange(this.sql, { projectId, range });
  }

  /** Stores events; returns the indexes of those skipped as duplicates of an earlier idempotency key. */
  insertEvents(projectId: string, events: NewEvent[]): Promise<Set<number>> {
    return insertEvents({ sql: this.sql, dictionaries: this.dictionaries, projectId, events });
  }

  /** Folds raw events after the watermark into the day sets, view counts and rollups; returns how many it read. */
  fold(): Promise<number> {
    return foldEvents(this.sql);
  }

  /** Clears and re-derives a project's (or every project's) derived rows from raw ones: see rebuild-derived.ts. */
  rebuild(options: { projectId?: string; onProgress?: (p: RebuildProgress) => void } = {}) {
    return rebuildDerived(this.sql, options);
  }

  /** Generation of each day that has data in [fromDay, toDay). */
  dayGenerations(projectId: string, fromDay: number, toDay: number): Promise<Map<number, number>> {
    return dayGenerations(this.sql, { projectId, fromDay, toDay });
  }

  loadDaySets(projectId: string, day: number): Promise<StoredDaySets> {
    return loadDaySets(this.sql, { projectId, day });
  }

  loadDayPageSets(projectId: string, day: number, pageId: number) {
    return loadDayPageSets(this.sql, { projectId, day, pageId });
  }

  /** Views per page and class over whole days [fromDay, toDay). */
  daysViews(projectId: string, fromDay: number, toDay: number) {
    return daysViews(this.sql, { projectId, fromDay, toDay });
  }

  /** Counted (human and AI) raw events in the range, for the partial days at the edges of a range. */
  rawEvents(projectId: string, range: TimeRange) {
    return rawEvents(this.sql, { projectId, range });
  }

  /** Counted raw events of some pages in the range, with their agent: the edges of a report about a few pages. */
  pageEvents(projectId: string, range: TimeRange, pageIds: readonly number[]) {
    return pageEvents(this.sql, { projectId, range, pageIds });
  }

  /** The agent rollup's cells over the whole days [fromDay, toDay), as folded (see rollups/agent-days.ts). */
  agentDays(projectId: string, fromDay: number, toDay: number, options: { viewsOnly?: boolean; pageId?: number } = {}) {
    return loadAgentDays(this.sql, { projectId, fromDay, toDay, ...options });
  }

  /** The site's distinct visitors per whole day in [fromDay, toDay), as folded (see rollups/site-days.ts). */
  siteDays(projectId: string, fromDay: number, toDay: number) {
    return readSiteDays(this.sql, { projectId, fromDay, toDay });
  }

  /** Raw page views of the range that count in the agent rollup's cells, for the partial days at a range's edges. */
  agentEdgeEvents(projectId: string, range: TimeRange, options: { aiOnly?: boolean; referred?: boolean } = {}) {
    return agentEdgeEvents(this.sql, { projectId, range, ...options });
  }

  insertAiMisses(projectId: string, misses: StoredMiss[]): Promise<number> {
    return insertAiMisses(this.sql, { projectId, misses });
  }

  /** Misses in the range by path, agent and status. */
  aiMissCounts(projectId: string, range: TimeRange) {
    return aiMissCounts(this.sql, { projectId, range });
  }

  /**
   * What the project's signals and AI misses are now (store/signals-version.ts): the same stamp twice, the same
   * counts.
   */
  signalsStamp(projectId: string): Promise<string> {
    return signalsVersion(this.sql, projectId);
  }

  /** Some pages' counted raw events of a UTC day, packed by page and class in time order. */
  dayEvents(projectId: string, day: number, pageIds: readonly number[]): Promise<DayEvents> {
    return dayEvents(this.sql, { projectId, day, pageIds });
  }

  /** See rollups/page-days.ts pageDays. */
  pageDays(projectId: string, days: readonly number[], pageIds: readonly number[]) {
    return pageDays(this.sql, { projectId, days, pageIds });
  }

  /** What answers about each day were derived from (see read-days.ts dayVersions); null during a rebuild. */
  dayVersions(projectId: string, fromDay: number, toDay: number): Promise<Map<number, string> | null> {
    return dayVersions(this.sql, { projectId, fromDay, toDay });
  }

  /** Paths of the given page ids. */
  paths(projectId: string, ids: Iterable<number>): Promise<Map<number, string>> {
    return this.dictionaries.paths(this.sql, projectId, ids);
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}
