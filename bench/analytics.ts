/**
 * Visitor analytics benchmark (not a test): the synthetic docs site of bench/site.ts (5,000 paths with Zipf
 * popularity, 1,000,000 visitors, 10% AI across 7 agents, 30 days) at each size, on SQLite and PostgreSQL. Prints
 * the time to generate and ingest it through the HTTP batch endpoint (target at 10M: under 10 minutes), p50/p95 of
 * the visitors export for 1/7/30-day ranges (first and a deep page) beside the naive COUNT(DISTINCT …) over raw
 * events, and the server's peak memory. Then, after storing what the other reports read (AI misses, feedback,
 * searches: bench/ai-reports.ts), issue 20's targets table (bench/report-targets.ts): every report's first call after
 * a restart and warm p50 over 30 days beside today's raw scan (bench/raw-scan-reports.ts), with ratios and a check
 * that both answers agree; and the storage per page view (bench/storage.ts).
 *   npm run bench:analytics                          # 1M and 10M page views, both databases
 *   npm run bench:analytics -- --sizes 1000000 --db sqlite
 *   npm run bench:analytics -- --sizes 1000000,10000000 --db sqlite,postgresql --naive-reps 1 --raw-reps 1
 *   npm run bench:analytics -- --store clickhouse --sizes 1000000,10000000 --db sqlite
 * --store clickhouse (default embedded): the page-view reports, ingest and storage of the embedded store beside
 * ClickHouse (CLICKHOUSE_URL at the tests' stand-in), in one run, as ratios (bench/clickhouse-store.ts); --db
 * defaults to sqlite there, and only --sizes, --db and --target-reps apply.
 * Options: --reps 15 (export table; --skip-export-table leaves it out) --naive-reps 3 --target-reps 7 (warm requests per report,
 * timed after --target-warm-ups 20 untimed ones: see bench/report-targets.ts timeOnNewServer) --raw-reps 3 (raw
 * scans per report after the first) --skip-ai-reports (export table only) --ranges-table (also p50/p95 of the AI
 * and reader-signal reports over 1/7/30 days, --ai-reps 5) --skip-storage --index-variants (bench/index-variants.ts)
 * --skip-chdb (leaves out the export against chDB's exact count, bench/chdb-export.ts)
 * --target-reports NAME,… (only those targets, and the export)
 * --revisit N (sizes above N draw their views from the (visitor, page) pairs of the plain site's first N views: more
 * views, about the same distinct pairs, visitors and pages; growth then shows what views alone cost).
 */
import type { DatabaseTarget } from '../src/db/database-url.js';
import { loadConfig } from '../src/config.js';
import { openSql } from '../src/analytics/store/sql.js';
import { hasUnfoldedEvents } from '../src/analytics/store/fold-events.js';
import { naiveVisitors } from '../test/support/naive-visitors.js';
import { createDatabase, createProject, peakRssMb, startServer } from './bench-server.js';
import { ingestReportInputs, reportCoverage, timeReports, type ReportTiming } from './ai-reports.js';
import { DAY, ingestViews, pathName, rng, storeRobotsVersions, zipf } from './site.js';
import { measureTargets, targetsTable, type TargetTiming } from './report-targets.js';
import { STORAGE_HEADER, storageTable } from './storage-report.js';
import { indexVariants, VARIANTS_HEADER } from './index-variants.js';
import { compareStores, type StoreComparison } from './clickhouse-store.js';
import { comparisonReport } from './clickhouse-store-tables.js';
import { timeChdbExport, type ChdbExportTiming } from './chdb-export.js';
import { comparable, TARGET_REPORTS, thirtyDays } from './report-targets.js';

/** Milliseconds until the fold's watermark reaches the last stored event (polled every 100 ms). */
async function untilFolded(target: DatabaseTarget): Promise<number> {
  const started = performance.now();
  const sql = openSql(target);
  try {
    while (await hasUnfoldedEvents(sql)) await new Promise((resolve) => setTimeout(resolve, 100));
    return performance.now() - started;
  } finally {
    await sql.close();
  }
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const STORE = arg('store', 'embedded');
if (STORE !== 'embedded' && STORE !== 'clickhouse') throw new Error(`--store ${STORE}: embedded or clickhouse`);
const SIZES = arg('sizes', '1000000,10000000').split(',').map(Number);
const PROVIDERS = arg('db', arg('providers', STORE === 'clickhouse' ? 'sqlite' : 'sqlite,postgresql')).split(
  ',',
) as DatabaseTarget['provider'][];
const REPS = Number(arg('reps', '15'));
const NAIVE_REPS = Number(arg('naive-reps', '3'));
const TARGET_REPS = Number(arg('target-reps', '7'));
const TARGET_WARM_UPS = Number(arg('target-warm-ups', '20'));
const RAW_REPS = Number(arg('raw-reps', '3'));
/** --target-reports ai/robots,ai/coverage: those targets only (beside the visitors export, which the others are judged by) */
const TARGET_ONLY = process.argv.includes('--target-reports') ? arg('target-reports', '').split(',') : undefined;
const AI_REPS = Number(arg('ai-reps', '5'));
const SKIP_AI_REPORTS = process.argv.includes('--skip-ai-reports');
const RANGES_TABLE = process.argv.includes('--ranges-table');
const SKIP_STORAGE = process.argv.includes('--skip-storage');
const INDEX_VARIANTS = process.argv.includes('--index-variants');
const SKIP_EXPORT_TABLE = process.argv.includes('--skip-export-table');
const SKIP_CHDB = process.argv.includes('--skip-chdb');
/** the servers' analytics cache budget (they inherit this environment) */
const CACHE_MB = loadConfig(process.env).analytics.cacheMb;
/** sizes above it draw their views from the pairs of this many views of the plain site (bench/site.ts revisitDraws) */
const REVISIT = Number(arg('revisit', '0')) || undefined;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))];
const ms = (x: number) => (x < 10 ? x.toFixed(1) : Math.round(x).toString());

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const result = await fn();
  return [performance.now() - t, result];
}

async function run(provider: DatabaseTarget['provider'], size: number) {
  const revisit = REVISIT && size > REVISIT ? REVISIT : undefined;
  const sizeLabel = revisit
    ? `${size.toLocaleString('en')} (the pairs of ${revisit.toLocaleString('en')})`
    : size.toLocaleString('en');
  const log = (msg: string) => console.error(`[${provider} ${sizeLabel}] ${msg}`);
  const { target, drop } = await createDatabase(provider);
  const { projectId, key } = await createProject(target, `bench/docs-${provider}`);
  const project = { id: projectId };
  let { child, url } = await startServer(target);
  // the highest resident set of any server process of this run (the reports restart it), beside the cache budget
  let peakRss = 0;
  const stop = async () => {
    peakRss = Math.max(peakRss, peakRssMb(child.pid!));
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const endDay = Math.floor(Date.now() / DAY);
  try {
    log('ingesting…');
    const { accepted, seconds: ingestSeconds } = await ingestViews({ url, projectId, key, size, endDay, revisit });
    log(`ingested ${accepted} in ${ingestSeconds.toFixed(1)} s`);

    const exportUrl = (days: number, offset: number) => {
      const from = new Date((endDay - days) * DAY).toISOString().slice(0, 10);
      const to = new Date(endDay * DAY).toISOString().slice(0, 10);
      return {
        path: `${url}/v1/analytics/${project.id}/visitors?dateFrom=${from}&dateTo=${to}&limit=50&offset=${offset}`,
        range: { from: (endDay - days) * DAY, to: endDay * DAY },
      };
    };
    // reports never fold: the background fold catches up after the last batch; "folded" is when its watermark
    // reaches the last stored event
    const foldedSeconds = ingestSeconds + (await untilFolded(target)) / 1000;
    log(`generated, ingested and folded in ${(foldedSeconds / 60).toFixed(2)} min`);
    const [catchUpMs] = await timed(() => fetch(exportUrl(30, 0).path, { headers }).then((r) => r.json()));
    log(`first export (cold cache) ${ms(catchUpMs)} ms`);
    let loadedSeconds = foldedSeconds;

    const sql = openSql(target);
    const rows = [];
    for (const days of SKIP_EXPORT_TABLE ? [] : [1, 7, 30]) {
      for (const [label, offset] of [
        ['first', 0],
        ['deep', 4900],
      ] as const) {
        const { path: u, range } = exportUrl(days, offset);
        const ours: number[] = [];
        let body: unknown;
        for (let i = 0; i < REPS; i++) {
          const [t, b] = await timed(() => fetch(u, { headers }).then((r) => r.json()));
          ours.push(t);
          body = b;
        }
        const naive: number[] = [];
        let expected: unknown;
        for (let i = 0; i < NAIVE_REPS; i++) {
          const [t, b] = await timed(() => naiveVisitors({ sql, projectId: project.id, range, limit: 50, offset }));
          naive.push(t);
          expected = b;
        }
        const same = JSON.stringify(body) === JSON.stringify(expected);
        rows.push({ days, page: label, p50: pct(ours, 0.5), p95: pct(ours, 0.95), naiveP50: pct(naive, 0.5), same });
        log(
          `${days}d ${label}: p50 ${ms(pct(ours, 0.5))} ms, p95 ${ms(pct(ours, 0.95))} ms; naive p50 ${ms(pct(naive, 0.5))} ms; identical: ${same}`,
        );
      }
    }
    await sql.close();

    let reports: ReportTiming[] = [];
    let targets: TargetTiming[] = [];
    if (!SKIP_AI_REPORTS) {
      const base = `${url}/v1/analytics/${project.id}`;
      log('storing AI misses, feedback and searches…');
      const [inputMs, stored] = await timed(() =>
        ingestReportInputs({ base, key, site: { page: (u) => pathName(zipf(u)), random: rng(7), endDay }, size }),
      );
      log(`stored ${JSON.stringify(stored)} in ${ms(inputMs)} ms`);
      await storeRobotsVersions(target, projectId, endDay);
      loadedSeconds += inputMs / 1000;
      log(`page views and the reports' inputs generated and stored in ${(loadedSeconds / 60).toFixed(1)} min`);
      log(await reportCoverage({ base, key, endDay }));
      if (RANGES_TABLE) reports = await timeReports({ base, key, endDay, reps: AI_REPS, log });
      targets = await measureTargets({
        target,
        projectId,
        key,
        endDay,
        restart: async () => {
          await stop();
          ({ child, url } = await startServer(target));
          return url;
        },
        reps: TARGET_REPS,
        warmUps: TARGET_WARM_UPS,
        rawReps: RAW_REPS,
        only: TARGET_ONLY,
        log,
      });
    }
    const exportReport = TARGET_REPORTS[0];
    const { range: thirty, dates } = thirtyDays(endDay);
    const served = SKIP_CHDB
      ? ''
      : await fetch(`${url}/v1/analytics/${projectId}/${exportReport.path}?${dates}${exportReport.query}`, {
          headers,
        }).then((r) => r.text());
    await stop();
    let chdb: (ChdbExportTiming & { same: boolean }) | undefined;
    if (!SKIP_CHDB) {
      log('copying the page views into chDB and timing its exact count…');
      const timing = await timeChdbExport({ target, projectId, range: thirty, reps: TARGET_REPS, warmUps: 3 });
      const same = comparable(exportReport, served) === comparable(exportReport, timing.answer);
      chdb = { ...timing, same };
      log(
        `chDB exact count: loaded in ${timing.loadSeconds.toFixed(1)} s, first ${ms(timing.firstMs)} ms, warm p50 ${ms(timing.p50)} ms; same answer: ${same}`,
      );
    }
    const storage = SKIP_STORAGE ? '' : await storageTable({ target, provider, views: accepted });
    // logged at once too: a long run stopped before its end still leaves the figures of the sizes it finished
    if (storage) log(`storage:\n${storage}`);
    const variants = INDEX_VARIANTS ? await indexVariants({ target, projectId, views: accepted, endDay, log }) : '';
    return {
      provider,
      size,
      sizeLabel,
      eventsPerSecond: Math.round(accepted / ingestSeconds),
      loadedSeconds,
      foldedSeconds,
      catchUpMs,
      rows,
      peakRssMb: peakRss,
      chdb,
      reports,
      targets,
      storage,
      variants,
    };
  } finally {
    if (child.exitCode === null && child.signalCode === null) await stop();
    await drop();
  }
}

if (STORE === 'clickhouse') {
  const comparisons: StoreComparison[] = [];
  for (const size of SIZES) {
    for (const provider of PROVIDERS) {
      comparisons.push(await compareStores({ provider, size, reps: TARGET_REPS }));
      // printed after each size too: a long run stopped before its end still leaves the sizes it finished
      console.error(comparisonReport(comparisons.slice(-1), TARGET_REPS));
    }
  }
  console.log(comparisonReport(comparisons, TARGET_REPS));
  process.exit(0);
}

const results = [];
for (const size of SIZES) for (const provider of PROVIDERS) results.push(await run(provider, size));

console.log(
  `\n| database | page views | ingest events/s | generated, ingested and folded (≤ 3 min SQLite, ≤ 4 min PostgreSQL at 10M) | + the reports’ inputs stored | first export after the fold | server peak RSS, any process of the run (cache budget ${CACHE_MB} MB) |`,
);
console.log('|---|---|---|---|---|---|---|');
for (const r of results)
  console.log(
    `| ${r.provider} | ${r.size.toLocaleString('en')} | ${r.eventsPerSecond.toLocaleString('en')} | ${(r.foldedSeconds / 60).toFixed(2)} min | ${(r.loadedSeconds / 60).toFixed(1)} min | ${ms(r.catchUpMs)} ms | ${r.peakRssMb} MiB |`,
  );
if (!SKIP_EXPORT_TABLE) {
  console.log(
    '\nThe visitors export, beside the naive COUNT(DISTINCT …):\n\n| database | page views | range | page | p50 ms | p95 ms | naive p50 ms | naive ÷ p50 | same answer |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    for (const row of r.rows) {
      console.log(
        `| ${r.provider} | ${r.size.toLocaleString('en')} | ${row.days} d | ${row.page} | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(row.naiveP50)} | ${(row.naiveP50 / row.p50).toFixed(1)}× | ${row.same ? 'yes' : 'NO'} |`,
      );
    }
  }
}

if (!SKIP_CHDB && !SKIP_AI_REPORTS) {
  console.log(
    "\nThe visitors export (30 days, first 50 pages) against chDB's exact count (`uniqExact`) over the same rows copied into a MergeTree table ordered by time, chDB in the bench's process on the same cores (bench/chdb-export.ts); first: the export's first call after a restart, chDB's first query on a newly opened session; targets: chDB ÷ export warm ≥ 5×, first ≥ 1×:\n\n| database | page views | chDB first ms | chDB warm p50 ms | export first ms | export warm p50 ms | chDB ÷ export, warm | chDB ÷ export, first | same answer |",
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const ours = r.targets.find((t) => t.report === 'visitors export');
    if (!r.chdb || !ours) continue;
    const x = (a: number, b: number, goal: number) => `${(a / b).toFixed(1)}×${a / b >= goal ? '' : ' ✗'}`;
    console.log(
      `| ${r.provider} | ${r.size.toLocaleString('en')} | ${ms(r.chdb.firstMs)} | ${ms(r.chdb.p50)} | ${ms(ours.firstMs)} | ${ms(ours.p50)} | ${x(r.chdb.p50, ours.p50, 5)} | ${x(r.chdb.firstMs, ours.firstMs, 1)} | ${r.chdb.same ? 'yes' : '**NO**'} |`,
    );
  }
}

if (RANGES_TABLE && !SKIP_AI_REPORTS) {
  console.log(
    `\nAI-traffic and reader-signal reports (${AI_REPS} timed requests per cell after one untimed; rows: length of the answer's list, CSV data lines):`,
  );
  console.log('\n| database | page views | report | range | p50 ms | p95 ms | rows |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results) {
    for (const t of r.reports)
      console.log(
        `| ${r.provider} | ${r.size.toLocaleString('en')} | ${t.report} | ${t.days} d | ${ms(t.p50)} | ${ms(t.p95)} | ${t.rows} |`,
      );
  }
}

if (!SKIP_AI_REPORTS) {
  console.log(
    `\nReport targets, 30-day range (first call: the first request to a new server process, twice, in two new processes — nothing derived outlives a process but the per-day rows; warm p50 over ${TARGET_REPS} requests after ${TARGET_WARM_UPS} untimed ones that follow it; raw scan: the report as answered on 2026-11-24, bench/raw-scan-reports.ts, on a new connection, p50 over ${RAW_REPS} after its first; ✗ marks a missed target):\n`,
  );
  console.log(targetsTable(results, Math.min(...SIZES)));
  const mismatches = results.flatMap((r) =>
    r.targets.filter((t) => !t.same).map((t) => `${r.provider} ${r.size} ${t.report}`),
  );
  if (mismatches.length) console.log(`\n!!!!!!!! ANSWERS DIFFER FROM THE RAW SCAN: ${mismatches.join('; ')} !!!!!!!!`);
}

if (!SKIP_STORAGE) {
  console.log(
    '\nStorage per page view (bench/storage.ts; SQLite: dbstat pages in use; PostgreSQL: after VACUUM ANALYZE):\n',
  );
  console.log(STORAGE_HEADER);
  for (const r of results) console.log(r.storage);
}

if (INDEX_VARIANTS) {
  console.log("\nThe raw events' time index, other layouts (bench/index-variants.ts):\n");
  console.log(VARIANTS_HEADER);
  for (const r of results) console.log(r.variants);
}
