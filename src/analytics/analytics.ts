import { createHmac } from 'node:crypto';
import type { AnalyticsConfig } from '../config.js';
import type { DatabaseTarget } from '../db/database-url.js';
import type { Logger } from '../logger.js';
import type { Clock } from '../clock.js';
import { openSql, type Sql } from './sql.js';
import { ReaderSignals, type FeedbackStoredListener } from './feedback/reader-signals.js';
import { AnalyticsStore, type NewEvent } from './store.js';
import { DayCache } from './day-cache.js';
import { AgentRanges } from './verify-agent.js';
import { agentPages, aiReferrals, purposeSplit, type AgentPage, type PurposeSplit, type Referrals } from './ai-traffic.js';
import { aiMisses, recordAiMisses, type AiMissRow } from './ai-misses.js';
import type { Miss } from './ai-misses.js';
import { createVisitorHasher, type VisitorHasher } from './visitor-hash.js';
import { prepareEvent, type PageView } from './prepare-event.js';
import { ingestedEvents, rejectedEvents } from '../metrics/metrics.js';
import { countViews, countVisitors, type Counts, type RangeCounts, type TimeRange } from './count-range.js';
import { aiAgents, dailyVisitors, type AgentCounts, type DayCounts } from './breakdowns.js';

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
  private readonly store: AnalyticsStore;
  private readonly cache: DayCache;
  private readonly hasher: VisitorHasher;
  private readonly sql: Sql;
  private signals: ReaderSignals | undefined;
  /** operators' published ranges, to tell real AI agents from spoofed user agents */
  readonly ranges: AgentRanges;
  private folding: Promise<unknown> = Promise.resolve();
  private foldTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly params: {
      target: DatabaseTarget;
      secret: string;
      config: AnalyticsConfig;
      logger: Logger;
      clock: Clock;
      autoFold?: boolean;
      /** told of feedback once it is stored (main.ts: feedback-triggered automations) */
      onFeedbackStored?: FeedbackStoredListener;
    },
  ) {
    this.sql = openSql(params.target);
    this.store = new AnalyticsStore(this.sql);
    this.cache = new DayCache(params.config.cacheMb * 1024 * 1024);
    this.hasher = createVisitorHasher({ secret: params.secret, rotation: params.config.saltRotation });
    this.ranges = AgentRanges.load(params.config.aiRangesFile);
  }

  /** Views and visitors of AI traffic by purpose (training, search, assistant, agent), with the human figures beside. */
  aiPurposes(projectId: string, range: TimeRange): Promise<PurposeSplit> {
    return purposeSplit({ source: { sql: this.sql, store: this.store }, projectId, range });
  }

  /** Which pages each AI agent (or operator) reads. */
  aiAgentPages(projectId: string, range: TimeRange, by: 'agent' | 'operator'): Promise<AgentPage[]> {
    return agentPages({ source: { sql: this.sql, store: this.store }, projectId, range, by });
  }

  /** Humans an AI assistant sent, per assistant and per page. */
  aiReferrals(projectId: string, range: TimeRange): Promise<Referrals> {
    return aiReferrals({ source: { sql: this.sql, store: this.store }, projectId, range });
  }

  /** AI requests answered 404, 410 or 5xx, from imported logs. */
  aiMisses(projectId: string, range: TimeRange): Promise<AiMissRow[]> {
    return aiMisses({ sql: this.sql, projectId, range });
  }

  /** Keeps AI requests that logs show were answered 404, 410 or 5xx (once per log line). */
  recordAiMisses(projectId: string, misses: Miss[]): Promise<number> {
    return recordAiMisses(this.sql, projectId, misses);
  }

  /** Page feedback and site searches, on this service's connection (and its write lock), so they close with it. */
  readerSignals(): ReaderSignals {
    if (this.signals) return this.signals;
    const listener = this.params.onFeedbackStored;
    // A listener's failure is logged, not answered: the feedback is stored whatever it does with it.
    const onStored: FeedbackStoredListener | undefined =
      listener && ((stored) => listener(stored).catch((err: unknown) => this.params.logger.error({ err, project: stored.projectId }, 'acting on stored feedback failed')));
    this.signals = new ReaderSignals({ sql: this.sql, secret: this.params.secret, hasher: this.hasher, clock: this.params.clock, onStored });
    return this.signals;
  }

  /** Classifies, hashes and stores page views; bad ones are rejected by index with a reason. */
  async ingest(projectId: string, views: PageView[], indexes?: number[]): Promise<IngestResult> {
    const rejected: IngestResult['rejected'] = [];
    const events: NewEvent[] = [];
    const now = this.params.clock().getTime();
    views.forEach((view, i) => {
      const prepared = prepareEvent({ projectId, view, hasher: this.hasher, now, ranges: this.ranges });
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

  /**
   * Idempotency key of a log line — or of the Nth copy of a line in one log, as importLogs numbers them: importing
   * the same log twice stores each copy once. Keyed, since lines hold IPs.
   */
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

  /** Unique visitors for each UTC day the range touches (see breakdowns.ts). */
  async dailyVisitors(projectId: string, range: TimeRange): Promise<DayCounts[]> {
    await this.fold();
    return dailyVisitors({ store: this.store, cache: this.cache, projectId, range });
  }

  /** AI traffic by agent over the range, most visitors first (from the raw page views, which keep the agent name). */
  aiAgents(projectId: string, range: TimeRange): Promise<AgentCounts[]> {
    return aiAgents({ store: this.store, projectId, range });
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
