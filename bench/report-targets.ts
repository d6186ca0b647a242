/**
 * Issue 20's targets, measured in bench/analytics.ts: for every report over the 30-day range, its first call in a new
 * server process with no stored segments (its very first computation), then the first call in another new process
 * (caches cold, segments as that computation stored them: what a restart sees; each after one request over an empty
 * range has started Prisma, Express and the connection; the operating system's and PostgreSQL's buffer caches as
 * earlier calls left them)
 * and the warm p50, beside the same report answered by the raw scan of 2026-11-24 (bench/raw-scan-reports.ts) on
 * its own connection in the same run — and whether both say the same.
 */
import { openSql } from '../src/analytics/store/sql.js';
import type { DatabaseTarget } from '../src/db/database-url.js';
import type { TimeRange } from '../src/calendar.js';
import * as raw from './raw-scan-reports.js';

const DAY = 86_400_000;

export interface TargetReport {
  name: string;
  /** under /v1/analytics/{projectId}/, with its query after the range */
  path: string;
  query: string;
  csv?: boolean;
  /** answered from the page views: from ClickHouse when CLICKHOUSE_URL is set (bench/clickhouse-store.ts) */
  pageViews: boolean;
  raw: (s: raw.RawScan) => Promise<unknown>;
}

/** Every report, the visitors export first: the others are judged by it. */
export const TARGET_REPORTS: TargetReport[] = [
  { name: 'visitors export', path: 'visitors', query: '&limit=50', pageViews: true, raw: raw.visitorsExport },
  { name: 'views', path: 'views', query: '&limit=50', pageViews: true, raw: raw.views },
  { name: 'visitors/daily', path: 'visitors/daily', query: '', pageViews: true, raw: raw.dailyVisitors },
  { name: 'agents', path: 'agents', query: '', pageViews: true, raw: raw.agents },
  { name: 'ai/purposes', path: 'ai/purposes', query: '', pageViews: true, raw: raw.purposes },
  {
    name: 'ai/purposes (CSV)',
    path: 'ai/purposes',
    query: '&format=csv',
    csv: true,
    pageViews: true,
    raw: raw.purposesCsv,
  },
  { name: 'ai/agent-pages', path: 'ai/agent-pages', query: '', pageViews: true, raw: (s) => raw.agentPages(s) },
  { name: 'ai/referrals', path: 'ai/referrals', query: '', pageViews: true, raw: raw.referrals },
  { name: 'ai/robots', path: 'ai/robots', query: '', pageViews: true, raw: raw.robots },
  { name: 'ai/coverage', path: 'ai/coverage', query: '', pageViews: true, raw: raw.coverage },
  { name: 'ai/misses', path: 'ai/misses', query: '', pageViews: false, raw: raw.misses },
  { name: 'feedback/by-page', path: 'feedback/by-page', query: '', pageViews: false, raw: raw.feedbackByPage },
  { name: 'searches', path: 'searches', query: '', pageViews: false, raw: raw.searches },
];

export interface TargetTiming {
  report: string;
  /** the first call in a new process with no stored segments: the report's very first computation */
  coldMs: number;
  firstMs: number;
  p50: number;
  rawFirstMs: number;
  rawP50: number;
  same: boolean;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** JSON with object keys sorted and the cursor left out (it encodes a snapshot, not the answer). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (key, v) => {
    if (key === 'nextCursor') return undefined;
    if (v && typeof v === 'object' && !Array.isArray(v))
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, (v as Record<string, unknown>)[k]]),
      );
    return v;
  });
}

/** `dateFrom=…&dateTo=…` of the 30 days before `endDay`, and that range. */
export function thirtyDays(endDay: number): { range: TimeRange; dates: string } {
  const range: TimeRange = { from: (endDay - 30) * DAY, to: endDay * DAY };
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  return { range, dates: `dateFrom=${day(range.from)}&dateTo=${day(range.to)}` };
}

/**
 * One report over `dates` on a new server process (`restart`): its first call and the warm p50 of `reps` calls
 * after it and `warmUps` untimed ones, with the first call's body. The untimed calls let V8 compile the report's code:
 * in a new process the first dozen or so calls run it unoptimized, which for a report of a few milliseconds is most
 * of its time (on 2026-11-29, `visitors/daily` at 10M: 6–13 ms for the 15 calls after the first, 2–3 ms after).
 */
export async function timeOnNewServer(params: {
  restart: () => Promise<string>;
  projectId: string;
  key: string;
  report: TargetReport;
  dates: string;
  reps: number;
  /** untimed calls between the first and the timed ones */
  warmUps?: number;
  /** run after the warm-up request, before the first call */
  beforeFirst?: () => Promise<void>;
}): Promise<{ firstMs: number; p50: number; body: string }> {
  const { restart, projectId, key, report, dates, reps } = params;
  const headers = { authorization: `Bearer ${key}` };
  const base = `${await restart()}/v1/analytics/${projectId}`;
  // The process's first request pays for starting Prisma (API key check), Express and the connection: a request
  // over an empty range (1970) takes that, so the report's first call below pays only for its own cold caches.
  const warmUp = await fetch(`${base}/ai/misses?dateFrom=1970-01-01&dateTo=1970-01-02`, { headers });
  if (warmUp.status !== 200) throw new Error(`warm-up request: ${warmUp.status}`);
  await warmUp.text();
  await params.beforeFirst?.();
  const url = `${base}/${report.path}?${dates}${report.query}`;
  const get = async () => {
    const t = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${report.name}: ${res.status} ${body.slice(0, 300)}`);
    return [performance.now() - t, body] as const;
  };
  const [firstMs, body] = await get();
  for (let i = 0; i < (params.warmUps ?? 0); i++) await get();
  const warm: number[] = [];
  for (let i = 0; i < reps; i++) warm.push((await get())[0]);
  return { firstMs, p50: median(warm), body };
}

/**
 * An answer as compared: a CSV byte for byte, JSON by `canonical` (a served body is text, a raw scan's answer a
 * value).
 */
export const comparable = (report: TargetReport, answer: unknown): string =>
  report.csv ? String(answer) : canonical(typeof answer === 'string' ? JSON.parse(answer) : answer);

export async function measureTargets(params: {
  target: DatabaseTarget;
  projectId: string;
  key: string;
  endDay: number;
  /** stops the running server and starts a new one; resolves to its base URL */
  restart: () => Promise<string>;
  reps: number;
  /** untimed calls before the warm ones (see timeOnNewServer) */
  warmUps: number;
  rawReps: number;
  /** report names to time (the visitors export always is) */
  only?: string[];
  log: (msg: string) => void;
}): Promise<TargetTiming[]> {
  const { target, projectId, key, endDay, restart, reps, warmUps, rawReps, log } = params;
  const { range, dates } = thirtyDays(endDay);
  const timings: TargetTiming[] = [];
  const reports = TARGET_REPORTS.filter((r, i) => !params.only || i === 0 || params.only.includes(r.name));
  for (const report of reports) {
    // the first call in a new process twice (what a restart, a deploy or another replica sees): nothing derived is
    // kept across processes but the per-day rows, so both are the report's very first computation
    const { firstMs: coldMs } = await timeOnNewServer({ restart, projectId, key, report, dates, reps: 0 });
    const timing = { restart, projectId, key, report, dates, reps, warmUps };
    const { firstMs, p50, body: firstBody } = await timeOnNewServer(timing);

    // the raw scan on a connection of its own, opened for it: its first call pays what a new process would
    const sql = openSql(target);
    const scan = async () => {
      const t = performance.now();
      const answer = await report.raw({ sql, projectId, range });
      return [performance.now() - t, answer] as const;
    };
    let rawFirstMs: number;
    let expected: unknown;
    const rawTimes: number[] = [];
    try {
      [rawFirstMs, expected] = await scan();
      for (let i = 0; i < rawReps; i++) rawTimes.push((await scan())[0]);
    } finally {
      await sql.close();
    }
    const same = comparable(report, firstBody) === comparable(report, expected);
    if (!same) {
      log(`!!!!!!!! MISMATCH: ${report.name} answered differently from the raw scan !!!!!!!!`);
      log(`  served:   ${comparable(report, firstBody).slice(0, 600)}`);
      log(`  raw scan: ${comparable(report, expected).slice(0, 600)}`);
    }
    const row = {
      report: report.name,
      coldMs,
      firstMs,
      p50,
      rawFirstMs,
      rawP50: rawTimes.length ? median(rawTimes) : rawFirstMs,
      same,
    };
    timings.push(row);
    log(
      `${report.name} 30d: nothing stored ${Math.round(coldMs)} ms, first after a restart ${Math.round(firstMs)} ms, warm p50 ${ms(row.p50)} ms; raw scan first ${Math.round(rawFirstMs)} ms, p50 ${ms(row.rawP50)} ms; same answer: ${same}`,
    );
  }
  return timings;
}

export const ms = (x: number) => (x < 10 ? x.toFixed(1) : Math.round(x).toLocaleString('en'));
const ratio = (x: number) => `${x < 10 ? x.toFixed(2) : Math.round(x).toLocaleString('en')}×`;
const check = (ok: boolean) => (ok ? '' : ' ✗');

/**
 * The targets table: per database, size and report the first call (target ≤ 1 s), warm p50 (≤ 150 ms) and its ratio
 * to the export's, growth from the smallest size in the run, and both times as ratios to the raw scan's.
 */
export function targetsTable(
  results: { provider: string; size: number; sizeLabel?: string; targets: TargetTiming[] }[],
  smallest: number,
): string {
  const lines = [
    '| database | page views | report | first call in a new process ms | again in another new process ms (≤ 1 s) | warm p50 ms (≤ 150 ms) | ÷ export p50 | growth from ' +
      `${smallest.toLocaleString('en')} | raw scan first ms | raw scan p50 ms | first ÷ raw first | p50 ÷ raw p50 | same answer |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const exportP50 = r.targets.find((t) => t.report === 'visitors export')?.p50 ?? Number.NaN;
    const base = results.find((b) => b.provider === r.provider && b.size === smallest);
    for (const t of r.targets) {
      const small = r.size === smallest ? undefined : base?.targets.find((b) => b.report === t.report);
      const growth = small ? t.p50 / small.p50 : undefined;
      lines.push(
        `| ${r.provider} | ${r.sizeLabel ?? r.size.toLocaleString('en')} | ${t.report} | ${ms(t.coldMs)}${check(t.coldMs <= 1000)} | ${ms(t.firstMs)}${check(t.firstMs <= 1000)} | ${ms(t.p50)}${check(t.p50 <= 150)} | ` +
          `${ratio(t.p50 / exportP50)} | ${growth === undefined ? '—' : ratio(growth)} | ` +
          `${ms(t.rawFirstMs)} | ${ms(t.rawP50)} | ${ratio(t.firstMs / t.rawFirstMs)} | ${ratio(t.p50 / t.rawP50)} | ${t.same ? 'yes' : '**NO**'} |`,
      );
    }
  }
  return lines.join('\n');
}
