/**
 * `npm run bench:analytics -- --store clickhouse` (issue 17, "Measured"): per database and size, the synthetic site
 * (bench/site.ts) ingested through HTTP into two servers in one run — the embedded store (no CLICKHOUSE_URL), then
 * one whose CLICKHOUSE_URL points at the tests' ClickHouse stand-in (test/support/clickhouse-server.ts: chDB in a
 * child process behind ClickHouse's HTTP interface, its data in a temporary directory on disk) — and on both the
 * page-view reports' first call after a restart and warm p50 (bench/report-targets.ts), whether both answer the
 * same, and the bytes each store keeps. Tables: bench/clickhouse-store-tables.ts.
 */
import fs from 'node:fs';
import { openSql } from '../src/analytics/store/sql.js';
import type { DatabaseTarget } from '../src/db/database-url.js';
import { startClickHouseStandIn, type ClickHouseStandIn } from '../test/support/clickhouse-server.js';
import { createDatabase, createProject, peakRssMb, startServer } from './bench-server.js';
import { comparable, TARGET_REPORTS, thirtyDays, timeOnNewServer } from './report-targets.js';
import { DAY, ingestViews, storeRobotsVersions } from './site.js';

export type Store = 'embedded' | 'clickhouse';

/** The reports answered from page views: the ones CLICKHOUSE_URL moves. */
export const PAGE_VIEW_REPORTS = TARGET_REPORTS.filter((r) => r.pageViews);

export interface ReportRun {
  report: string;
  firstMs: number;
  p50: number;
  /** the first call's answer as compared (bench/report-targets.ts `comparable`) */
  answer: string;
}

export interface ClickHouseTable {
  table: string;
  parts: number;
  rows: number;
  bytes: number;
}

export interface StoreRun {
  store: Store;
  accepted: number;
  ingestSeconds: number;
  /**
   * from the ingest's end to the first 30-day export's answer: it folds what is still waiting (embedded); with
   * ClickHouse, the background shipper empties the outbox first
   */
  catchUpMs: number;
  /**
   * ClickHouse: page views still in the outbox when the ingest ended (accepted less those in ClickHouse), and the
   * most the server reported waiting during the ingest (/readyz, the depth the outbox limit is checked against)
   */
  outbox?: { atIngestEnd: number; peakReported: number };
  serverPeakRssMb: number;
  reports: ReportRun[];
  /** the primary database after the run: the SQLite file (with its WAL) or pg_database_size */
  primaryBytes: number;
  /** active parts of the ClickHouse database right after the catch-up, and after the reports (merges had time) */
  clickhouseShipped?: ClickHouseTable[];
  clickhouseLater?: ClickHouseTable[];
}

export interface StoreComparison {
  provider: DatabaseTarget['provider'];
  size: number;
  embedded: StoreRun;
  clickhouse: StoreRun;
  /** p50 of `SELECT 1` through the stand-in, before the run */
  standInRoundTripMs: number;
}

/** Both stores at one size on one primary database, with one ClickHouse stand-in. */
export async function compareStores(params: {
  provider: DatabaseTarget['provider'];
  size: number;
  reps: number;
}): Promise<StoreComparison> {
  const { provider, size, reps } = params;
  const endDay = Math.floor(Date.now() / DAY);
  const standIn = await startClickHouseStandIn();
  try {
    const standInMs = await standInRoundTripMs(standIn);
    console.error(
      `[${provider} ${size.toLocaleString('en')}] stand-in round trip (SELECT 1) p50 ${standInMs.toFixed(1)} ms`,
    );
    const embedded = await measureStore({ store: 'embedded', provider, size, endDay, reps });
    const clickhouse = await measureStore({ store: 'clickhouse', provider, size, endDay, reps, standIn });
    return { provider, size, embedded, clickhouse, standInRoundTripMs: standInMs };
  } finally {
    await standIn.close();
  }
}

async function measureStore(params: {
  store: Store;
  provider: DatabaseTarget['provider'];
  size: number;
  endDay: number;
  reps: number;
  standIn?: ClickHouseStandIn;
}): Promise<StoreRun> {
  const { store, provider, size, endDay, reps, standIn } = params;
  const log = (msg: string) => console.error(`[${provider} ${size.toLocaleString('en')} ${store}] ${msg}`);
  const { target, drop } = await createDatabase(provider, store === 'clickhouse' ? 'ch' : 'embedded');
  // An outbox as large as the run, so ingest is never refused (503) while the shipper catches up; the peak backlog
  // is reported beside it, to compare with the default limit (SCRIBE_CLICKHOUSE_OUTBOX_LIMIT, 1,000,000).
  const env: Record<string, string> = standIn
    ? { CLICKHOUSE_URL: standIn.url, SCRIBE_CLICKHOUSE_OUTBOX_LIMIT: String(Math.max(size, 1_000_000)) }
    : {};
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const stop = async () => {
    const child = server?.child;
    server = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    const { projectId, key } = await createProject(target, `bench/docs-${provider}-${store}`);
    const headers = { authorization: `Bearer ${key}` };
    server = await startServer(target, env);
    const { url } = server;
    log('ingesting…');
    const sampler = standIn ? sampleReportedOutbox(url) : undefined;
    const { accepted, seconds: ingestSeconds } = await ingestViews({ url, projectId, key, size, endDay });
    await storeRobotsVersions(target, projectId, endDay);
    const outbox = standIn
      ? { atIngestEnd: accepted - (await clickhouseRows(standIn)), peakReported: await sampler!.stop() }
      : undefined;
    log(`ingested ${accepted} in ${ingestSeconds.toFixed(1)} s${outbox ? `; outbox ${JSON.stringify(outbox)}` : ''}`);
    const { dates } = thirtyDays(endDay);
    const t = performance.now();
    // The background shipper's pace, watched from ClickHouse's side; a report would ship the rest itself, but in one
    // request that can outlast an HTTP client's patience (fetch: 5 minutes for the headers).
    while (standIn && (await clickhouseRows(standIn)) < accepted) await new Promise((r) => setTimeout(r, 1000));
    const shippedMs = performance.now() - t;
    if (standIn) log(`outbox shipped ${Math.round(shippedMs)} ms after the ingest`);
    const first = await fetch(`${url}/v1/analytics/${projectId}/visitors?${dates}&limit=50`, { headers });
    if (first.status !== 200) throw new Error(`first export: ${first.status} ${await first.text()}`);
    await first.text();
    const catchUpMs = performance.now() - t;
    log(
      `first export (${standIn ? 'after the outbox was shipped' : 'folds the rest'}): done ${Math.round(catchUpMs)} ms after the ingest`,
    );
    const serverPeakRssMb = peakRssMb(server.child.pid!);
    const clickhouseShipped = standIn ? await clickhouseParts(standIn) : undefined;

    // Each report on a new server process. Before the timed call, besides the request over an empty range that
    // timeOnNewServer makes (Prisma, Express, the primary connection), one page-view report over that range: on
    // ClickHouse it opens the client's connection and checks the schema, as the primary's connection is warmed.
    const restart = async () => {
      await stop();
      server = await startServer(target, env);
      const warmUp = await fetch(
        `${server.url}/v1/analytics/${projectId}/views?dateFrom=1970-01-01&dateTo=1970-01-02`,
        {
          headers,
        },
      );
      if (warmUp.status !== 200) throw new Error(`warm-up request: ${warmUp.status} ${await warmUp.text()}`);
      await warmUp.text();
      return server.url;
    };
    const reports: ReportRun[] = [];
    for (const report of PAGE_VIEW_REPORTS) {
      const timing = await timeOnNewServer({ restart, projectId, key, report, dates, reps });
      reports.push({
        report: report.name,
        firstMs: timing.firstMs,
        p50: timing.p50,
        answer: comparable(report, timing.body),
      });
      log(`${report.name}: first ${Math.round(timing.firstMs)} ms, warm p50 ${timing.p50.toFixed(1)} ms`);
    }
    await stop();
    const clickhouseLater = standIn ? await clickhouseParts(standIn) : undefined;
    const primaryBytes = await primaryDatabaseBytes(target);
    return {
      store,
      accepted,
      ingestSeconds,
      catchUpMs,
      outbox,
      serverPeakRssMb,
      reports,
      primaryBytes,
      clickhouseShipped,
      clickhouseLater,
    };
  } finally {
    await stop();
    await drop();
  }
}

/**
 * Samples the outbox depth the server reports on /readyz (the one SCRIBE_CLICKHOUSE_OUTBOX_LIMIT is checked
 * against) every two seconds until stopped; resolves to the largest seen. Nothing reads the SQLite file meanwhile:
 * a reader's lock there can make the server's ingest transaction fail when it must spill to the file.
 */
function sampleReportedOutbox(url: string): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const res = await fetch(`${url}/readyz`).catch(() => undefined);
      const body = (await res?.json().catch(() => undefined)) as { clickhouse?: { outbox?: number } } | undefined;
      peak = Math.max(peak, body?.clickhouse?.outbox ?? 0);
      await new Promise((r) => setTimeout(r, 2000));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}

/** Runs a statement on the stand-in through its HTTP interface; resolves to the response text. */
async function standInQuery(standIn: ClickHouseStandIn, query: string): Promise<string> {
  const url = new URL(standIn.url);
  const auth = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`);
  const res = await fetch(`${url.origin}/`, {
    method: 'POST',
    body: query,
    headers: { authorization: `Basic ${auth.toString('base64')}` },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${query.slice(0, 60)}: ${res.status} ${text}`);
  return text;
}

/** The p50 of `SELECT 1` through the stand-in: what every ClickHouse query pays before any work (HTTP, chDB). */
async function standInRoundTripMs(standIn: ClickHouseStandIn): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    const t = performance.now();
    await standInQuery(standIn, 'SELECT 1');
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[10]!;
}

/** Active parts of the stand-in's database per table, from `system.parts`. */
async function clickhouseParts(standIn: ClickHouseStandIn): Promise<ClickHouseTable[]> {
  const text = await standInQuery(
    standIn,
    `SELECT table, count() AS parts, sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts
      WHERE database = '${standIn.database}' AND active GROUP BY table ORDER BY table FORMAT JSONEachRow`,
  );
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const row = JSON.parse(line) as Record<string, string | number>;
      return { table: String(row.table), parts: Number(row.parts), rows: Number(row.rows), bytes: Number(row.bytes) };
    });
}

/** Page views in the stand-in's `page_views` (shipped so far). */
async function clickhouseRows(standIn: ClickHouseStandIn): Promise<number> {
  return Number(await standInQuery(standIn, `SELECT count() FROM ${standIn.database}.page_views`));
}

/** The SQLite file with its WAL, or the PostgreSQL database's size. */
async function primaryDatabaseBytes(target: DatabaseTarget): Promise<number> {
  if (target.provider === 'sqlite') {
    const size = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);
    return size(target.filePath!) + size(`${target.filePath}-wal`);
  }
  const sql = openSql(target);
  try {
    const [row] = await sql.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
    return Number(row!.bytes);
  } finally {
    await sql.close();
  }
}
