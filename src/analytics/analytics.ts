import { AI_RANGES_DEFAULTS, type AnalyticsConfig, type TrackerCommitConfig } from '../config.js';
import type { DatabaseTarget } from '../db/database-url.js';
import type { Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import type { Clock } from '../clock.js';
import { daysTouched, type TimeRange } from '../calendar.js';
import { ReaderSignals } from './signals/reader-signals.js';
import type { FeedbackStoredListener } from './signals/feedback-stored.js';
import { openSql, type Sql } from './store/sql.js';
import { Dictionaries } from './store/dictionaries.js';
import { foldEvents } from './store/fold-events.js';
import { rebuildDerived } from './store/rebuild-derived.js';
import { dayVersions } from './store/read-days.js';
import { insertEvents } from './store/write-events.js';
import { DayCache } from './store/day-cache.js';
import type { BatchResult } from './ingest/batch-result.js';
import { BrowserCollector } from './ingest/collect-browser.js';
import { importLogs, type LogImportSummary } from './ingest/import-logs.js';
import type { LogFormat } from './ingest/log-formats.js';
import { logLineKey } from './ingest/log-line-key.js';
import type { PageView } from './ingest/prepare-event.js';
import { recordAiMisses, type Miss } from './ingest/record-ai-misses.js';
import { storePageViews } from './ingest/store-page-views.js';
import { AgentRanges } from './ingest/verify-agent.js';
import { AgentVerifier } from './ingest/agent-verifier.js';
import { KeyDirectories } from './ingest/key-directories.js';
import { addressAllowList, fetchKeyDirectory, type FetchedDirectory } from './ingest/fetch-key-directory.js';
import { type DirectoryImport, importKeyDirectoryFiles, isDirectoryFile } from './ingest/import-key-directories.js';
import { readKeyDirectories } from './store/key-directories.js';
import { robotsTxtReaders } from './ingest/robots-txt-readers.js';
import {
  type AgentView,
  recordRobotsReaders,
  recordRobotsVersion,
  robotsReaders,
  robotsVersions,
} from './store/robots-txt.js';
import { aiRobots, type RobotsReport } from './reports/ai-robots.js';
import { refreshRobotsTxt } from './ingest/refresh-robots-txt.js';
import { robotsFetches } from './store/robots-fetches.js';
import { aiCoverage, type CoverageReport, type CoverageSection } from './reports/ai-coverage.js';
import { agentViewCounts } from './reports/agent-view-counts.js';
import { clickHouseAgentViewCounts } from './clickhouse/clickhouse-agent-views.js';
import { ReverseDnsConfirmer, systemResolver, type DnsResolver } from './ingest/reverse-dns.js';
import { AiRangesRefresher } from './ingest/refresh-ai-ranges.js';
import { importRangeFiles, type RangeImport } from './ingest/import-ai-ranges.js';
import type { RangeFile } from './ingest/ai-user-agents/published-lists.js';
import { createVisitorHasher, HashThread, type InputHasher } from './ingest/visitor-hash.js';
import { aiAgents, type AgentsReport } from './reports/ai-agents.js';
import { aiVerification, verificationOfAgents, type VerificationViews } from './reports/ai-verification.js';
import { agentPages, type AgentPage } from './reports/ai-agent-pages.js';
import { aiMisses, type AiMissRow } from './reports/ai-misses.js';
import { type PurposeCounts, purposeSplit, type PurposeSplit, purposeViews } from './reports/ai-purposes.js';
import { purposeOf } from './store/rollups/agent-columns.js';
import { aiReferrals, type Referrals } from './reports/ai-referrals.js';
import { dailyVisitors, type DayCounts } from './reports/daily-visitors.js';
import { exportPage, type Page } from './reports/export-page.js';
import { offsetPage } from './reports/offset-page.js';
import { countViews } from './reports/views.js';
import { countVisitors } from './reports/visitors.js';
import { ClickHouseEvents, refusedDatabase } from './clickhouse/clickhouse-events.js';
import { clickHouseGroupVisitors, clickHousePageTraffic } from './clickhouse/clickhouse-page-traffic.js';
import { CoalescedRuns } from './coalesced-runs.js';
import {
  clickHouseAgentPages,
  clickHouseAgents,
  clickHouseDailyVisitors,
  clickHouseExport,
  clickHousePurposes,
  clickHouseReferrals,
} from './clickhouse/clickhouse-reports.js';
import { operatorOf } from './ingest/classify-user-agent.js';
import {
  copyProjectEvents,
  projectsWithEvents,
  type CopyOutcome,
  type CopyProgress,
} from './clickhouse/copy-events.js';
import { migrateClickHouse } from './clickhouse/migrate-clickhouse.js';
import { Unavailable } from '../errors.js';
import type { RebuildProgress } from './store/rebuild-derived.js';
import { pageMisses } from './ingest/record-page-misses.js';
import { insertPageMisses } from './store/page-misses.js';
import { signalsVersion } from './store/signals-version.js';
import { problemSignals, type ProblemSignals } from './reports/problem-signals.js';
import { pageTrafficFromDays } from './reports/page-traffic.js';
import {
  countOutcomeVisitors,
  noVisitors,
  outcomeGroups,
  readOutcomeCounts,
  readOutcomeSignals,
  readQueriesInto,
  type VisitorCounts,
  type WindowCounts,
} from './reports/outcome-counts.js';

/**
 * Events are folded into the day sets this long after an ingest, so a burst of batches is folded together. Each fold
 * rewrites the stored rows of every day it touches (day sets, page days): a second after each ingest, a busy day's
 * rows were rewritten about seven times over (10M views on SQLite: 4.3 min to ingest and fold, against 3.35 min at
 * five seconds). Reports meanwhile read the waiting views raw.
 */
const FOLD_DELAY_MS = 5000;
/**
 * And on this schedule whatever the ingest: events another replica stored and did not fold (it stopped first) are
 * folded here. Reports never wait for a fold: they read the events after its watermark raw.
 */
const FOLD_EVERY_MS = 60_000;

/**
 * How long a batch of server-side events or log lines may wait for reverse DNS of AI agents' addresses; the tracker
 * waits for none (README "Verified, unverified, unverifiable").
 */
export const DNS_WAIT_MS = 1000;

/**
 * Visitor analytics for one database: ingest (ingest/), the tables (store/) and the reports (reports/) behind one
 * small interface, the one the HTTP routes, the CLI and main.ts use. One per process and database.
 */
export class Analytics {
  private readonly cache: DayCache;
  private readonly hasher: InputHasher;
  private readonly hashThread = new HashThread();
  private readonly sql: Sql;
  /** the numbering of paths and visitor hashes, cached for this process */
  private readonly dictionaries = new Dictionaries();
  private signals: ReaderSignals | undefined;
  private collector: BrowserCollector | undefined;
  private feedbackListener: FeedbackStoredListener | undefined;
  /** operators' published ranges, to tell real AI agents from spoofed user agents (swapped by a refresh) */
  private currentRanges: AgentRanges;
  private readonly shippedRanges: AgentRanges;
  private readonly verifier: AgentVerifier;
  /** Web Bot Auth key directories trusted for AI agents: shipped, imported, fetched */
  readonly keyDirectories: KeyDirectories;
  private refresher: AiRangesRefresher | undefined;
  /** with CLICKHOUSE_URL: page views go to ClickHouse through the outbox */
  private readonly clickhouse: ClickHouseEvents | undefined;
  private clickhouseStarting: Promise<void> = Promise.resolve();
  private readonly folds = new CoalescedRuns(() => foldEvents(this.sql));
  private foldTimer: NodeJS.Timeout | undefined;
  private robotsTimer: NodeJS.Timeout | undefined;
  private foldSchedule: NodeJS.Timeout | undefined;

  constructor(
    private readonly params: {
      target: DatabaseTarget;
      secret: string;
      config: AnalyticsConfig;
      logger: Logger;
      clock: Clock;
      /** false: no fold, nor shipping to ClickHouse, on a schedule or after ingestion (tests do them step by step) */
      autoFold?: boolean;
      /** reverse DNS for confirming AI agents (default: the system's) */
      resolver?: DnsResolver;
      /** fetches operators' range lists (default: global fetch) */
      fetch?: typeof fetch;
      /** fetches a Web Bot Auth key directory (default: fetch-key-directory.ts with SCRIBE_KEY_DIRECTORY_ALLOW) */
      fetchDirectory?: (url: string) => Promise<FetchedDirectory>;
    },
  ) {
    this.sql = openSql(params.target);
    if (params.autoFold !== false) {
      this.foldSchedule = setInterval(() => this.scheduleFold(), FOLD_EVERY_MS);
      this.foldSchedule.unref();
    }
    this.cache = new DayCache(params.config.cacheMb * 1024 * 1024);
    this.hasher = createVisitorHasher({ secret: params.secret, rotation: params.config.saltRotation });
    const aiRanges = params.config.aiRanges ?? AI_RANGES_DEFAULTS;
    this.shippedRanges = AgentRanges.load({
      file: params.config.aiRangesFile,
      maxAgeMs: aiRanges.maxAgeDays * 86_400_000,
    });
    this.currentRanges = this.shippedRanges;
    const dns = aiRanges.reverseDns
      ? new ReverseDnsConfirmer({
          resolver: params.resolver ?? systemResolver(),
          now: () => params.clock().getTime(),
        })
      : undefined;
    const allow = aiRanges.keyDirectoryAllow ? addressAllowList(aiRanges.keyDirectoryAllow) : undefined;
    this.keyDirectories = new KeyDirectories(KeyDirectories.readSnapshot(), {
      now: () => params.clock().getTime(),
      fetchDirectory:
        aiRanges.keyDirectoryFetch === false
          ? undefined
          : (params.fetchDirectory ?? ((url) => fetchKeyDirectory({ url, allow }))),
      onError: (url, err) => params.logger.warn({ url, err: err.message }, 'fetching a key directory failed'),
    });
    this.verifier = new AgentVerifier({ ranges: () => this.currentRanges, dns, directories: this.keyDirectories });
    if (params.config.clickhouse) {
      this.clickhouse = new ClickHouseEvents({
        sql: this.sql,
        config: params.config.clickhouse,
        logger: params.logger,
        autoShip: params.autoFold,
      });
      // not awaited: a ClickHouse that is down must not keep Scribe from starting (views wait in the outbox)
      this.clickhouseStarting = this.clickhouse
        .start()
        .catch((err: unknown) => params.logger.error({ err }, 'starting the ClickHouse store failed'));
    }
  }

  /** The range lists in use now. */
  get ranges(): AgentRanges {
    return this.currentRanges;
  }

  /**
   * Uses the range lists kept in the database, and keeps them current (a refresh each day with
   * SCRIBE_AI_RANGES_REFRESH=daily, a reload of other replicas' copies each hour). Resolves after the first round.
   */
  async startRangesRefresh(): Promise<void> {
    await this.loadKeyDirectories();
    return this.rangesRefresher().start();
  }

  /** Refreshes what is due and loads the stored range lists now (after `scribe ranges import`, in tests). */
  refreshRanges(): Promise<AgentRanges> {
    return this.rangesRefresher().round();
  }

  /** Uses the range lists kept in the database (imported, or refreshed by a replica), fetching nothing. */
  async loadStoredRanges(): Promise<AgentRanges> {
    await this.loadKeyDirectories();
    return this.rangesRefresher().reload({ quiet: true });
  }

  /** Uses the key directories kept in the database (imported), beside the shipped snapshot. */
  private async loadKeyDirectories(): Promise<void> {
    this.keyDirectories.use(await readKeyDirectories(this.sql));
  }

  /**
   * Keeps downloaded range list files, and key directory snapshots, as the stored copies every replica uses
   * (`scribe ranges import`).
   */
  async importRangesAndDirectories(
    files: RangeFile[],
  ): Promise<{ ranges: RangeImport[]; directories: DirectoryImport[] }> {
    const directoryFiles = files.filter(isDirectoryFile);
    const rangeFiles = files.filter((f) => !directoryFiles.includes(f));
    const directories = await importKeyDirectoryFiles(this.sql, directoryFiles);
    const ranges = rangeFiles.length ? await importRangeFiles(this.sql, rangeFiles) : [];
    await this.loadStoredRanges();
    return { ranges, directories };
  }

  private rangesRefresher(): AiRangesRefresher {
    this.refresher ??= new AiRangesRefresher({
      sql: this.sql,
      shipped: this.shippedRanges,
      config: this.params.config.aiRanges ?? AI_RANGES_DEFAULTS,
      logger: this.params.logger.child({ component: 'ai-ranges' }),
      clock: this.params.clock,
      fetch: this.params.fetch,
      onRanges: (ranges) => {
        this.currentRanges = ranges;
      },
      current: () => this.currentRanges,
    });
    return this.refresher;
  }

  /** What /readyz reports of the analytics store: ClickHouse's reachability and outbox, when configured. */
  async readiness(): Promise<{ error: string } | { ready: Record<string, unknown> }> {
    if (!this.clickhouse) return { ready: {} };
    if (this.clickhouse.refusal) {
      return {
        error: `${refusedDatabase(this.clickhouse.refusal)}; ${this.clickhouse.depth} page view(s) wait in the outbox`,
      };
    }
    const reachable = await this.clickhouse.ping().catch(() => false);
    if (!reachable) {
      return {
        error: `ClickHouse (CLICKHOUSE_URL) is not reachable; ${this.clickhouse.depth} page view(s) wait in the outbox`,
      };
    }
    return { ready: { clickhouse: { outbox: this.clickhouse.depth } } };
  }

  /**
   * Views and visitors of AI traffic by purpose (training, search, assistant, agent), with the human figures beside:
   * the totals, and one page of the pages' rows, or every row when no page is asked for (the CSV).
   */
  async aiPurposes(
    projectId: string,
    range: TimeRange,
    page?: { limit: number; offset: number },
  ): Promise<PurposeSplit & { hasMore: boolean }> {
    if (this.clickhouse) {
      const split = await this.clickhouse.read(projectId, range, (s) => clickHousePurposes({ ...s, purposeOf }));
      if (!page) return { ...split, hasMore: false };
      const { rows, hasMore } = offsetPage(split.pages, page);
      return { totals: split.totals, pages: rows, hasMore };
    }
    return this.read((ctx) => purposeSplit({ ...ctx, projectId, range, page }));
  }

  /** Every page's views by purpose (the CSV): no visitors are counted. */
  async aiPurposeViews(projectId: string, range: TimeRange): Promise<{ path: string; views: PurposeCounts }[]> {
    if (this.clickhouse) {
      const split = await this.clickhouse.read(projectId, range, (s) => clickHousePurposes({ ...s, purposeOf }));
      return split.pages.map(({ path, views }) => ({ path, views }));
    }
    return this.read((ctx) => purposeViews({ ...ctx, projectId, range }));
  }

  /** One page of which pages each AI agent (or operator) reads. */
  async aiAgentPages(
    projectId: string,
    range: TimeRange,
    by: 'agent' | 'operator',
    page: { limit: number; offset: number },
  ): Promise<{ rows: AgentPage[]; hasMore: boolean }> {
    if (this.clickhouse) {
      return offsetPage(
        await this.clickhouse.read(projectId, range, (s) => clickHouseAgentPages({ ...s, by, operatorOf })),
        page,
      );
    }
    return this.read((ctx) => agentPages({ ...ctx, projectId, range, by, page }));
  }

  /** Humans an AI assistant sent, per assistant, and one page of the per-page rows (every row when none is asked for). */
  async aiReferrals(
    projectId: string,
    range: TimeRange,
    page?: { limit: number; offset: number },
  ): Promise<Referrals & { hasMore: boolean }> {
    if (this.clickhouse) {
      const referrals = await this.clickhouse.read(projectId, range, clickHouseReferrals);
      if (!page) return { ...referrals, hasMore: false };
      const { rows, hasMore } = offsetPage(referrals.pages, page);
      return { assistants: referrals.assistants, pages: rows, hasMore };
    }
    return this.read((ctx) => aiReferrals({ ...ctx, projectId, range, page }));
  }

  /** One page of the AI requests answered 404, 410 or 5xx, from imported logs. */
  aiMisses(
    projectId: string,
    range: TimeRange,
    page: { limit: number; offset: number },
  ): Promise<{ rows: AiMissRow[]; hasMore: boolean }> {
    return this.read((ctx) => aiMisses({ ...ctx, projectId, range, page }));
  }

  /** Keeps AI requests that logs show were answered 404, 410 or 5xx (once per log line). */
  recordAiMisses(projectId: string, misses: Miss[]): Promise<number> {
    return recordAiMisses({ sql: this.sql, projectId, misses });
  }

  /**
   * Keeps the 404s and 410s humans and AI agents got (once per key), their visitors hashed and AI agents verified as
   * page views are: the problems queue's missing pages. Returns how many were new.
   */
  async recordPageMisses(projectId: string, misses: Miss[]): Promise<number> {
    const now = this.params.clock().getTime();
    const verify = await this.verifier.prepare({ views: misses.map((m) => m.view), now, waitMs: DNS_WAIT_MS });
    const kept = pageMisses({ projectId, misses, hasher: this.hasher, now, verify });
    return insertPageMisses(this.sql, { projectId, misses: kept });
  }

  /**
   * What the problems queue and the page story read (reports/problem-signals.ts): a page's views from ClickHouse when
   * they are kept there, everything else from the primary.
   */
  problemSignals(): ProblemSignals {
    const signals: ProblemSignals = {
      ...problemSignals(this.sql),
      // whole days from the derived rows, the edge days from raw events (reports/page-traffic.ts)
      pageTraffic: async ({ projectId, path, range }) => {
        const pageId = (await this.pageIdsOf(projectId, [path])).get(path);
        return this.read((ctx) => pageTrafficFromDays({ ...ctx, projectId, pageId, range }));
      },
    };
    const clickhouse = this.clickhouse;
    if (!clickhouse) return signals;
    return {
      ...signals,
      pageTraffic: ({ projectId, path, range }) =>
        clickhouse.read(projectId, range, (s) => clickHousePageTraffic({ ...s, path })),
    };
  }

  /**
   * Outcome windows of a docs pull request's pages over several ranges (a merge's windows, both sides;
   * reports/outcome-counts.ts): the visitors in one snapshot, then each range's feedback, searches and misses (no
   * connection held meanwhile). `only: 'verdict'`: what a verdict reads alone (the pages' human visitors together,
   * their thumbs, the misses), every other count 0. `known`: the visitors of some ranges counted before (in the
   * groups' order; null: not known), not read again.
   */
  async outcomeCounts(
    params: Parameters<typeof readOutcomeCounts>[1] & {
      only?: 'verdict';
      known?: readonly (readonly VisitorCounts[] | null)[];
    },
  ): Promise<WindowCounts[]> {
    const { projectId, ranges, only, known = [], ...rest } = params;
    const groups = outcomeGroups(rest);
    const total = rest.paths.length;
    const unknown = ranges.filter((_, i) => !known[i]);
    const read = !unknown.length
      ? []
      : only
        ? (await this.outcomeVisitors(projectId, unknown, [rest.paths], 'alone')).map(([pages]) =>
            groups.map((_, i) => ({ ...noVisitors(), human: i === total ? pages.human : 0 })),
          )
        : await this.outcomeVisitors(projectId, unknown, groups);
    const visitors = ranges.map((_, i) => known[i] ?? read.shift()!);
    return readOutcomeCounts(this.sql, { ...rest, projectId, ranges }, visitors);
  }

  /**
   * What outcome reads of a project within `span` are derived from, as a function of a read's ranges: the versions of
   * the days they touch (store/read-days.ts dayVersions) and the project's signals version (its misses, feedback and
   * searches). The same stamp twice: the same answer. Null where no such version is kept (the views are on
   * ClickHouse, a rebuild is under way), and the function's answer null for a range outside `span`. With `'views'`,
   * the days' versions alone: the stamp of what the ranges' page views are (their visitor counts), whatever the
   * signals do.
   */
  async outcomeStamps(
    projectId: string,
    span: TimeRange,
  ): Promise<((ranges: readonly TimeRange[], of?: 'views') => string | null) | null> {
    if (this.clickhouse) return null;
    const [first, end] = daysTouched(span);
    const [days, signals] = await Promise.all([
      dayVersions(this.sql, { projectId, fromDay: first, toDay: end }),
      signalsVersion(this.sql, projectId),
    ]);
    if (!days) return null;
    return (ranges, of) => {
      const parts = of === 'views' ? [] : [signals];
      for (const range of ranges) {
        const [from, to] = daysTouched(range);
        if (from < first || to > end) return null;
        for (let day = from; day < to; day++) parts.push(days.get(day) ?? '-');
      }
      return parts.join(' ');
    };
  }

  /** The visitors of groups of paths over each range: read where the page views are kept. */
  private async outcomeVisitors(
    projectId: string,
    ranges: readonly TimeRange[],
    groups: readonly (readonly string[])[],
    humans?: 'alone',
  ): Promise<VisitorCounts[][]> {
    const clickhouse = this.clickhouse;
    if (clickhouse) {
      return Promise.all(
        ranges.map((range) => clickhouse.read(projectId, range, (s) => clickHouseGroupVisitors({ ...s, groups }))),
      );
    }
    const ids = await this.pageIdsOf(projectId, [...new Set(groups.flat())]);
    // a path never viewed has no id: no visitors
    const known = groups.map((group) => group.flatMap((path) => ids.get(path) ?? []));
    return this.read((ctx) => countOutcomeVisitors({ ...ctx, projectId, ranges, groups: known, humans }));
  }

  /** Ids of the pages with stored views among `paths`. */
  private async pageIdsOf(projectId: string, paths: readonly string[]): Promise<Map<string, number>> {
    if (!paths.length) return new Map();
    const rows = await this.sql.rows(
      `SELECT "path", "id" FROM "AnalyticsPage" WHERE "projectId" = ? AND "path" IN (${paths.map(() => '?').join(', ')})`,
      [projectId, ...paths],
    );
    return new Map(rows.map(([path, id]) => [String(path), Number(id)]));
  }

  /** The thumbs, comments and misses of many outcome windows at once, no page views read (readOutcomeSignals). */
  outcomeSignals(params: Parameters<typeof readOutcomeSignals>[1]): Promise<WindowCounts[][]> {
    return readOutcomeSignals(this.sql, params);
  }

  /** The site-search queries that led readers into some pages within a range (an outcome's searches). */
  outcomeQueries(params: Parameters<typeof readQueriesInto>[1]): Promise<string[]> {
    return readQueriesInto(this.sql, params);
  }

  /** Subscribes the one listener told of feedback once it is stored (main.ts: feedback-triggered automations). */
  onFeedbackStored(listener: FeedbackStoredListener): void {
    this.feedbackListener = listener;
  }

  /** Page feedback and site searches, on this service's connection (and its write lock), so they close with it. */
  readerSignals(): ReaderSignals {
    if (this.signals) return this.signals;
    // Read at each submission, so a listener subscribed after the signals were first asked for is still told. A
    // listener's failure is logged, not answered: the feedback is stored whatever it does with it.
    const onStored: FeedbackStoredListener = async (stored) =>
      this.feedbackListener?.(stored).catch((err: unknown) =>
        this.params.logger.error({ err, project: stored.projectId }, 'acting on stored feedback failed'),
      );
    this.signals = new ReaderSignals({
      sql: this.sql,
      secret: this.params.secret,
      hasher: this.hasher,
      clock: this.params.clock,
      cache: this.cache,
      onStored,
    });
    return this.signals;
  }

  /**
   * What the browser posts (page views, feedback, searches), checked against the projects in `db`: one collector per
   * service, so the tracker's and the widget's routes share its group commits.
   */
  browserCollector(params: { db: Db; commit: TrackerCommitConfig }): BrowserCollector {
    this.collector ??= new BrowserCollector({
      ...params,
      // the tracker's hot path never waits on DNS
      ingest: (projectId, views) => this.ingest(projectId, views, { dnsWaitMs: 0 }),
      signals: () => this.readerSignals(),
      miss: (projectId, miss) => this.recordPageMisses(projectId, [miss]),
      clock: this.params.clock,
      logger: this.params.logger,
    });
    return this.collector;
  }

  /**
   * Classifies, hashes and stores page views; bad ones are rejected by index with a reason. `dnsWaitMs`: how long the
   * batch may wait for reverse DNS of AI agents' addresses (the tracker passes 0).
   */
  async ingest(projectId: string, views: PageView[], options: { dnsWaitMs?: number } = {}): Promise<BatchResult> {
    const readers = robotsTxtReaders(views);
    if (readers.length) await recordRobotsReaders(this.sql, { projectId, readers });
    const result = await storePageViews({
      store: this.clickhouse ?? {
        insertEvents: (id, events) =>
          insertEvents({ sql: this.sql, dictionaries: this.dictionaries, projectId: id, events }),
      },
      hasher: this.hasher,
      hashThread: this.hashThread,
      verifier: this.verifier,
      dnsWaitMs: options.dnsWaitMs ?? DNS_WAIT_MS,
      now: this.params.clock().getTime(),
      projectId,
      views,
    });
    if (result.accepted && !this.clickhouse) this.scheduleFold();
    return result;
  }

  /** Streams an access log into the project's page views (and AI misses); importing it again adds nothing. */
  importLogs(params: {
    projectId: string;
    input: AsyncIterable<Buffer | string>;
    format: 'auto' | LogFormat;
    onProgress?: (bytesRead: number, summary: LogImportSummary) => void;
  }): Promise<LogImportSummary> {
    const { projectId, input, format, onProgress } = params;
    return importLogs({
      input,
      format,
      ingest: (views) => this.ingest(projectId, views),
      lineKey: (line) => logLineKey({ secret: this.params.secret, projectId, line }),
      recordMisses: async (misses) => {
        await this.recordAiMisses(projectId, misses);
        await this.recordPageMisses(projectId, misses);
      },
      onProgress,
    });
  }

  /**
   * Copies raw events of the primary database (one project's, or every project's) into ClickHouse, resumably, and
   * counts each project's views on both sides (see clickhouse/copy-events.ts).
   */
  async copyToClickHouse(options: {
    projectId?: string;
    onProgress?: (p: CopyProgress) => void;
  }): Promise<CopyOutcome[]> {
    const clickhouse = this.clickhouse;
    if (!clickhouse) throw new Unavailable('Set CLICKHOUSE_URL to copy page views to ClickHouse');
    await this.clickhouseStarting;
    const config = this.params.config.clickhouse!;
    await migrateClickHouse(clickhouse.client, config);
    const projects = options.projectId ? [options.projectId] : await projectsWithEvents(this.sql);
    const outcomes: CopyOutcome[] = [];
    for (const projectId of projects) {
      outcomes.push(
        await copyProjectEvents({
          sql: this.sql,
          client: clickhouse.client,
          database: config.database,
          projectId,
          onProgress: options.onProgress,
        }),
      );
    }
    return outcomes;
  }

  /** With ClickHouse: ships the outbox now (rejects when ClickHouse fails). */
  async shipToClickHouse(): Promise<number> {
    return this.clickhouse ? this.clickhouse.ship() : 0;
  }

  /**
   * Folds every stored event into the day sets now: one fold at a time per process, the calls made during a fold
   * sharing the next one (see CoalescedRuns). Runs after ingestion and on a schedule; reports never call it.
   */
  fold(): Promise<number> {
    return this.folds.run();
  }

  /**
   * Clears a project's (or every project's) derived rows and derives them again from its raw events; the project's
   * reports answer from raw events meanwhile (see store/rebuild-derived.ts).
   */
  async rebuild(options: { projectId?: string; onProgress?: (p: RebuildProgress) => void } = {}) {
    await this.fold();
    const result = await rebuildDerived(this.sql, options);
    await this.fold();
    return result;
  }

  /**
   * Runs a report over one snapshot of the database with the cache: it reads derived rows up to the
   * fold's watermark and raw events after it (see store/split-range.ts), never folds, and takes no write lock.
   */
  private read<T>(report: (ctx: { sql: Sql; dictionaries: Dictionaries; cache: DayCache }) => Promise<T>): Promise<T> {
    const { cache, dictionaries } = this;
    return this.sql.snapshot((sql) => report({ sql, dictionaries, cache }));
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
    if (this.clickhouse) {
      return this.clickhouse.read(projectId, range, (s) => clickHouseExport({ ...s, measure: 'visitors', page }));
    }
    return this.read(async (ctx) => {
      const counts = await countVisitors({ ...ctx, projectId, range });
      return exportPage({ ...ctx, projectId, counts, page });
    });
  }

  async views(projectId: string, range: TimeRange, page: { limit: number; offset: number }): Promise<Page> {
    if (this.clickhouse) {
      return this.clickhouse.read(projectId, range, (s) => clickHouseExport({ ...s, measure: 'views', page }));
    }
    return this.read(async (ctx) => {
      const counts = await countViews({ ...ctx, projectId, range });
      return exportPage({ ...ctx, projectId, counts, page });
    });
  }

  /** Unique visitors for each UTC day the range touches (see reports/daily-visitors.ts). */
  async dailyVisitors(projectId: string, range: TimeRange): Promise<DayCounts[]> {
    if (this.clickhouse) {
      return this.clickhouse.read(projectId, range, clickHouseDailyVisitors);
    }
    return this.read((ctx) => dailyVisitors({ ...ctx, projectId, range }));
  }

  /** AI traffic by agent over the range (verified and unverifiable visitors), most visitors first; spoofed agents apart. */
  async aiAgents(projectId: string, range: TimeRange): Promise<AgentsReport> {
    if (this.clickhouse) {
      return this.clickhouse.read(projectId, range, clickHouseAgents);
    }
    return this.read((ctx) => aiAgents({ ...ctx, projectId, range }));
  }

  /**
   * Fetches each project host's robots.txt once an hour (one replica per host and hour, see refresh-robots-txt.ts),
   * now and then every few minutes to catch the hour: failures are logged, never thrown.
   */
  startRobotsRefresh(hosts: () => Promise<{ projectId: string; host: string }[]>): void {
    const round = () =>
      this.refreshRobots(hosts).catch((err: unknown) =>
        this.params.logger.error({ err }, 'fetching robots.txt of project hosts failed'),
      );
    void round();
    this.robotsTimer = setInterval(round, 5 * 60_000);
    this.robotsTimer.unref();
  }

  /** One round of the robots.txt fetch (tests; the timer's). */
  async refreshRobots(
    hosts: () => Promise<{ projectId: string; host: string }[]>,
    urlOf?: (host: string) => string,
  ): Promise<number> {
    const allow = this.params.config.aiRanges?.keyDirectoryAllow;
    return refreshRobotsTxt({
      sql: this.sql,
      hosts: await hosts(),
      now: this.params.clock().getTime(),
      allow: allow ? addressAllowList(allow) : undefined,
      urlOf,
    });
  }

  /** Keeps a copy of a project host's robots.txt seen at `seenAt` (`scribe robots import`). */
  importRobotsTxt(params: { projectId: string; host: string; content: string; seenAt: number }) {
    return recordRobotsVersion(this.sql, params);
  }

  /**
   * AI views of paths robots.txt disallowed for their agent at the time, per agent and standing; the hosts' versions;
   * who asked for robots.txt. Views per agent and page from the derived per-day rows (or ClickHouse's) and raw edges.
   */
  async aiRobots(projectId: string, range: TimeRange): Promise<RobotsReport> {
    const [versions, readers, fetches] = await Promise.all([
      robotsVersions(this.sql, projectId),
      robotsReaders(this.sql, projectId),
      robotsFetches(this.sql, projectId),
    ]);
    // cut where a version comes into force: inside each piece every view is judged by the same versions
    const cuts = versions.map((v) => v.firstSeenAt);
    const views = await this.agentViewCounts(projectId, range, { cuts });
    return aiRobots({ versions, views, readers, fetches });
  }

  /**
   * How much of the docs navigation (`sections`, read at the project's ref by the caller) each AI operator reads per
   * purpose, and its AI views against the humans its assistants sent, overall and per page: from the same counts as
   * aiRobots, the referred humans' views with them (views alone: no visitor is counted).
   */
  async aiCoverage(projectId: string, range: TimeRange, sections: CoverageSection[]): Promise<CoverageReport> {
    return aiCoverage({ sections, views: await this.agentViewCounts(projectId, range, { referred: true }) });
  }

  /**
   * AI views and spoofed ones per agent and page (with `referred`, the humans an assistant sent too), the range cut
   * at `cuts` (see reports/agent-view-counts.ts).
   */
  private async agentViewCounts(
    projectId: string,
    range: TimeRange,
    options: { cuts?: number[]; referred?: boolean },
  ): Promise<AgentView[]> {
    if (this.clickhouse) {
      return this.clickhouse.read(projectId, range, (s) => clickHouseAgentViewCounts({ ...s, ...options }));
    }
    return this.read((ctx) => agentViewCounts({ ...ctx, projectId, range, ...options }));
  }

  /** AI views over the range by how they were verified (signature, address list, reverse DNS), or not. */
  async aiVerification(projectId: string, range: TimeRange): Promise<VerificationViews> {
    if (this.clickhouse) return verificationOfAgents(await this.aiAgents(projectId, range));
    return this.read((ctx) => aiVerification({ ...ctx, projectId, range }));
  }

  async close(): Promise<void> {
    clearInterval(this.robotsTimer);
    await this.refresher?.stop();
    clearTimeout(this.foldTimer);
    clearInterval(this.foldSchedule);
    await this.folds.settled();
    await this.clickhouseStarting;
    await this.clickhouse?.close();
    await this.hashThread.close();
    await this.sql.close();
  }
}
