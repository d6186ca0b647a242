import type { AiRangesConfig } from '../../config.js';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import { aiRangesAge, aiRangesRefreshes, onScrape } from '../../metrics/metrics.js';
import {
  claimRangeRefresh,
  readRangeLists,
  refuseRangeList,
  storeRangeList,
  type StoredRangeList,
} from '../store/ai-range-lists.js';
import type { Sql } from '../store/sql.js';
import { parsePublishedRanges, type PublishedList } from './ai-user-agents/parse-range-files.js';
import type { AgentRanges, RangesSource } from './verify-agent.js';

const HOUR_MS = 3_600_000;
/** a list is fetched again once its copy is this old (SCRIBE_AI_RANGES_REFRESH=daily) */
const REFRESH_AFTER_MS = 24 * HOUR_MS;
/** a failed or held-back attempt is retried after this long, by any replica */
const RETRY_AFTER_MS = HOUR_MS;
const FETCH_TIMEOUT_MS = 15_000;
/** a range list is a few kilobytes; anything near this is not one */
const MAX_BYTES = 4 * 1024 * 1024;

/** Whether a fetched list may replace the held copy. */
export type Judgement = { accept: true } | { accept: false; error: string; pending: string[] | null };

/**
 * A list that shrank to less than half of the held copy's prefixes is held back until the next refresh sees the same
 * list again (operators do shrink lists, but a truncated or wrong answer shrinks them too); anything else replaces it.
 */
export function judgeRangeList(params: { held: string[]; pending: string[] | null; fetched: string[] }): Judgement {
  const { held, pending, fetched } = params;
  if (fetched.length * 2 >= held.length) return { accept: true };
  if (pending && sameSet(pending, fetched)) return { accept: true };
  return {
    accept: false,
    error: `shrank from ${held.length} to ${fetched.length} prefixes: kept the old copy until the next refresh sees the same list`,
    pending: fetched,
  };
}

function sameSet(a: string[], b: string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((x) => set.has(x));
}

/** Where a list is fetched from: its own URL, or `<override>/<host><path>` (a mirror, a test's stand-in server). */
export function listFetchUrl(url: string, override: string | undefined): string {
  if (!override) return url;
  const own = new URL(url);
  return `${override}/${own.host}${own.pathname}${own.search}`;
}

/** Fetches one list in the operators' format; an error status, an HTML page, a timeout or a bad list throws. */
export async function fetchRangeList(params: {
  url: string;
  fetch: typeof fetch;
  timeoutMs?: number;
  /** aborts the fetch (the process is stopping) */
  stop?: AbortSignal;
}): Promise<PublishedList> {
  const timeout = AbortSignal.timeout(params.timeoutMs ?? FETCH_TIMEOUT_MS);
  const signal = params.stop ? AbortSignal.any([timeout, params.stop]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await params.fetch(params.url, { signal, headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`answered ${response.status}`);
    }
    if (/html/i.test(response.headers.get('content-type') ?? '')) {
      await response.body?.cancel();
      throw new Error(`answered an HTML page (${response.status}), not a JSON range list`);
    }
    text = await response.text();
  } catch (err) {
    if (params.stop?.aborted) throw new Error('stopped');
    if (timeout.aborted) throw new Error('timed out');
    // fetch says only "fetch failed"; the reason (ENOTFOUND, ECONNREFUSED…) is its cause
    const code = (err as { cause?: { code?: unknown } }).cause?.code;
    throw typeof code === 'string' ? new Error(`unreachable (${code})`) : err;
  }
  if (text.length > MAX_BYTES) throw new Error(`answered ${text.length} bytes, too many for a range list`);
  return parsePublishedRanges(text);
}

/**
 * Keeps the AI agent range lists current: every replica reloads the copies kept in the database each hour (and at
 * start), and with `refresh: daily` claims the lists whose copy is a day old and fetches them from their operators,
 * keeping only answers that pass every check (judgeRangeList, parsePublishedRanges).
 */
export class AiRangesRefresher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopScrape: (() => void) | undefined;
  private readonly stopping = new AbortController();

  constructor(
    private readonly params: {
      sql: Sql;
      /** the shipped (or SCRIBE_AI_RANGES_FILE) lists, which stored copies replace */
      shipped: AgentRanges;
      config: AiRangesConfig;
      logger: Logger;
      clock: Clock;
      fetch?: typeof fetch;
      /** told of the lists to use from now on */
      onRanges: (ranges: AgentRanges) => void;
      /** the lists in use, for /metrics */
      current: () => AgentRanges;
    },
  ) {}

  /** Runs one round now and then hourly; exposes each list's age on /metrics. Resolves after the first round. */
  start(): Promise<void> {
    if (this.stopScrape) return Promise.resolve();
    this.stopScrape = onScrape(async () => {
      const now = this.params.clock().getTime();
      aiRangesAge.reset();
      for (const { url, operator, ageSeconds } of this.params.current().ages(now))
        if (Number.isFinite(ageSeconds)) aiRangesAge.set({ list: url, operator }, ageSeconds);
    });
    const tick = () => {
      const round = this.round().then(
        () => undefined,
        (err: unknown) => this.params.logger.error({ err }, 'refreshing AI agent ranges failed'),
      );
      this.timer = setTimeout(tick, HOUR_MS);
      this.timer.unref();
      return round;
    };
    return tick();
  }

  /** Stops the hourly rounds; a fetch under way is abandoned, so a stopping process never waits on an operator. */
  async stop(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    this.stopScrape?.();
    this.stopScrape = undefined;
    await this.running;
  }

  /** One round: refresh what is due (unless refresh is off), then use the stored copies. */
  round(): Promise<AgentRanges> {
    const run = this.running.then(async () => {
      if (this.params.config.refresh === 'off') return this.reload();
      // the stored copies first: a fetch that takes long leaves them in use meanwhile
      await this.reload({ quiet: true });
      await this.refreshDue();
      return this.reload();
    });
    this.running = run.catch(() => undefined);
    return run;
  }

  /** The shipped lists with the stored copies in place of theirs, handed to onRanges; logs each list's age. */
  async reload(options: { quiet?: boolean } = {}): Promise<AgentRanges> {
    const stored = await readRangeLists(this.params.sql);
    const ranges = this.params.shipped.withLists(copies(stored));
    this.params.onRanges(ranges);
    if (options.quiet) return ranges;
    const now = this.params.clock().getTime();
    const days = Object.fromEntries(
      ranges.ages(now).map((a) => [a.url, Number.isFinite(a.ageSeconds) ? Math.floor(a.ageSeconds / 86_400) : null]),
    );
    this.params.logger.info({ ageDays: days }, 'AI agent range lists in use (age in days)');
    return ranges;
  }

  private async refreshDue(): Promise<void> {
    const { sql, clock, logger } = this.params;
    const stored = new Map((await readRangeLists(sql)).map((s) => [s.url, s]));
    const refreshed: string[] = [];
    const kept: Record<string, string> = {};
    for (const source of this.params.shipped.sources) {
      if (this.stopping.signal.aborted) return;
      if (source.refresh === false) continue;
      const now = clock().getTime();
      const claimed = await claimRangeRefresh(sql, {
        url: source.url,
        now,
        retryBefore: now - RETRY_AFTER_MS,
        staleBefore: now - REFRESH_AFTER_MS,
      });
      if (!claimed) continue;
      const outcome = await this.refreshOne(source, stored.get(source.url), now);
      aiRangesRefreshes.inc({ outcome: outcome.accept ? 'accepted' : 'refused' });
      if (outcome.accept) refreshed.push(source.url);
      else kept[source.url] = outcome.error;
    }
    // one line per round, not per list: a deployment without network would otherwise log a dozen each hour
    if (refreshed.length) logger.info({ lists: refreshed }, 'refreshed AI agent range lists');
    if (Object.keys(kept).length)
      logger.warn({ reasons: kept }, 'kept the previous copies of AI agent range lists (tried again in an hour)');
  }

  private async refreshOne(source: RangesSource, held: StoredRangeList | undefined, now: number): Promise<Judgement> {
    const { sql, config } = this.params;
    let fetched: PublishedList;
    try {
      fetched = await fetchRangeList({
        url: listFetchUrl(source.url, config.urlOverride),
        fetch: this.params.fetch ?? fetch,
        stop: this.stopping.signal,
      });
    } catch (err) {
      const error = (err as Error).message;
      // a stopping process leaves the claim to lapse: another replica retries within the hour
      if (this.stopping.signal.aborted) return { accept: false, error, pending: null };
      await refuseRangeList(sql, { url: source.url, error });
      return { accept: false, error, pending: null };
    }
    const judgement = judgeRangeList({
      held: held?.prefixes ?? source.prefixes,
      pending: held?.pending ?? null,
      fetched: fetched.prefixes,
    });
    if (judgement.accept) await storeRangeList(sql, { url: source.url, ...fetched, retrievedAt: now });
    else await refuseRangeList(sql, { url: source.url, error: judgement.error, pending: judgement.pending });
    return judgement;
  }
}

/** The stored rows that hold a copy, as range sources (only the fields a copy replaces matter). */
export function copies(stored: StoredRangeList[]): RangesSource[] {
  return stored
    .filter((s) => s.prefixes !== null && s.retrievedAt !== null)
    .map((s) => ({
      url: s.url,
      operator: '',
      agents: [],
      creationTime: s.creationTime,
      retrievedAt: new Date(s.retrievedAt!).toISOString(),
      prefixes: s.prefixes!,
    }));
}
