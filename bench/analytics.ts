/**
 * Visitor analytics benchmark (not a test): a synthetic docs site — 5,000 paths with Zipf popularity, 1,000,000
 * visitors (10% AI agents), 30 days — at each size, on SQLite and PostgreSQL. Prints ingest throughput through the
 * HTTP batch endpoint, p50/p95 of the visitors export for 1/7/30-day ranges (first and a deep page) beside the
 * naive COUNT(DISTINCT …) over raw events, and the server's peak memory. Then p50/p95 of the AI-traffic and
 * reader-signal reports (bench/ai-reports.ts) for the same ranges, unless --skip-ai-reports.
 *   npm run bench:analytics                          # 1M and 10M page views, both databases
 *   npm run bench:analytics -- --sizes 1000000 --providers sqlite
 *   npm run bench:analytics -- --sizes 1000000 --skip-ai-reports --ai-reps 5
 *   npm run bench:analytics -- --store clickhouse   # page views on ClickHouse (the tests' chDB stand-in, or
 *                                                   # SCRIBE_TEST_CLICKHOUSE_URL): ingest through the outbox, the
 *                                                   # same reports, and the bytes ClickHouse holds (system.parts)
 */
import fs from 'node:fs';
import type { DatabaseTarget } from '../src/db/database-url.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { openDatabase } from '../src/db/client.js';
import { addProject } from '../src/projects/projects.js';
import { createApiKey } from '../src/keys/api-keys.js';
import { openSql } from '../src/analytics/store/sql.js';
import { naiveVisitors } from '../src/analytics/store/naive-counts.js';
import { createDatabase, startServer } from './bench-server.js';
import { ingestReportInputs, reportCoverage, timeReports, type ReportTiming } from './ai-reports.js';
import { startClickHouseStandIn, type ClickHouseStandIn } from '../test/support/clickhouse-server.js';
import { createClient } from '@clickhouse/client';

const DAY = 86_400_000;
const PATHS = 5000;
const VISITORS = 1_000_000;
const DAYS = 30;
const BATCH = 10_000;
const IN_FLIGHT = 4;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const SIZES = arg('sizes', '1000000,10000000').split(',').map(Number);
const PROVIDERS = arg('providers', 'sqlite,postgresql').split(',') as DatabaseTarget['provider'][];
const REPS = Number(arg('reps', '15'));
const NAIVE_REPS = Number(arg('naive-reps', '3'));
const AI_REPS = Number(arg('ai-reps', '5'));
const SKIP_AI_REPORTS = process.argv.includes('--skip-ai-reports');
const STORE = arg('store', 'embedded');
if (STORE !== 'embedded' && STORE !== 'clickhouse') throw new Error('--store is embedded or clickhouse');

const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
];
const AGENTS = [
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)',
  // an autonomous agent, so every purpose of /ai/purposes has traffic; agents still make up 10% of visitors
  'claude-code/1.0.72 (external, cli)',
];

/** Deterministic PRNG (mulberry32), so every run ingests the same site. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const zipf = (() => {
  const cdf = new Float64Array(PATHS);
  let sum = 0;
  for (let i = 0; i < PATHS; i++) cdf[i] = sum += 1 / (i + 1);
  for (let i = 0; i < PATHS; i++) cdf[i] /= sum;
  return (u: number) => {
    let lo = 0;
    let hi = PATHS - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
})();
const pathName = (i: number) => `/docs/section-${i % 40}/page-${i}`;

/**
 * About 3% of human visitors arrive from an AI assistant (for /ai/referrals). Chosen by visitor number, not drawn
 * from the generator, so paths, times and visitors — and the exports' answers — are those of a site without them.
 */
function referral(v: number, path: string): { path: string; referrer?: string } {
  const r = v % 100;
  if (r === 1) return { path, referrer: 'https://chatgpt.com/' };
  if (r === 2) return { path: `${path}?utm_source=perplexity`, referrer: 'https://www.perplexity.ai/' };
  if (r === 3) return { path: `${path}?utm_source=chatgpt.com` };
  return { path };
}

/** Batches of events for `total` page views over the 30 days before `endDay`, in time order. */
function* batches(total: number, endDay: number): Generator<string> {
  const random = rng(42);
  const perDay = Math.floor(total / DAYS);
  let batch: object[] = [];
  for (let d = 0; d < DAYS; d++) {
    const start = (endDay - DAYS + d) * DAY;
    const count = d === DAYS - 1 ? total - perDay * (DAYS - 1) : perDay;
    const step = DAY / count;
    for (let i = 0; i < count; i++) {
      const v = Math.floor(random() * VISITORS);
      const ai = v % 10 === 0;
      const path = pathName(zipf(random()));
      batch.push({
        timestamp: new Date(start + Math.floor(i * step)).toISOString(),
        ...(ai ? { path } : referral(v, path)),
        userAgent: ai ? AGENTS[((v / 10) % AGENTS.length) | 0] : BROWSERS[v % BROWSERS.length],
        ip: `10.${(v >> 16) & 255}.${(v >> 8) & 255}.${v & 255}`,
      });
      if (batch.length === BATCH) {
        yield JSON.stringify(batch);
        batch = [];
      }
    }
  }
  if (batch.length) yield JSON.stringify(batch);
}

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024);
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))];
const ms = (x: number) => (x < 10 ? x.toFixed(1) : Math.round(x).toString());

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const result = await fn();
  return [performance.now() - t, result];
}

async function run(provider: DatabaseTarget['provider'], size: number) {
  const log = (msg: string) => console.error(`[${provider} ${size.toLocaleString('en')}] ${msg}`);
  const { target, drop } = await createDatabase(provider);
  await migrateDatabase(target);
  const database = openDatabase(target);
  const clock = () => new Date();
  const project = await addProject({
    db: database.db,
    clock,
    repository: `bench/docs-${provider}`,
    ref: 'main',
    hostnames: ['docs.example.com'],
  });
  const { key } = await createApiKey({ db: database.db, clock, projectId: project.id, scope: 'write' });
  await database.close();
  const clickhouse: ClickHouseStandIn | undefined = STORE === 'clickhouse' ? await startClickHouseStandIn() : undefined;
  const { child, url } = await startServer(target, clickhouse ? { CLICKHOUSE_URL: clickhouse.url } : {});
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const endDay = Math.floor(Date.now() / DAY);
  try {
    // ingest: IN_FLIGHT batches on the wire while the next one is generated
    log('ingesting…');
    const started = performance.now();
    let accepted = 0;
    const pending = new Set<Promise<void>>();
    for (const body of batches(size, endDay)) {
      const p: Promise<void> = fetch(`${url}/v1/analytics/${project.id}/events`, { method: 'POST', headers, body })
        .then(async (res) => {
          const out = (await res.json()) as { accepted: number; rejected: unknown[] };
          if (res.status !== 202 || out.rejected.length)
            throw new Error(`ingest failed: ${res.status} ${JSON.stringify(out).slice(0, 300)}`);
          accepted += out.accepted;
        })
        .finally(() => pending.delete(p));
      pending.add(p);
      if (pending.size >= IN_FLIGHT) await Promise.race(pending);
    }
    await Promise.all(pending);
    if (clickhouse) {
      // accepted means durable in the outbox; ingest ends when ClickHouse holds every view
      for (;;) {
        const ready = (await (await fetch(`${url}/readyz`)).json()) as { clickhouse?: { outbox: number } };
        if (ready.clickhouse?.outbox === 0) break;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const ingestSeconds = (performance.now() - started) / 1000;
    log(`ingested ${accepted} in ${ingestSeconds.toFixed(1)} s`);

    const exportUrl = (days: number, offset: number) => {
      const from = new Date((endDay - days) * DAY).toISOString().slice(0, 10);
      const to = new Date(endDay * DAY).toISOString().slice(0, 10);
      return {
        path: `${url}/v1/analytics/${project.id}/visitors?dateFrom=${from}&dateTo=${to}&limit=50&offset=${offset}`,
        range: { from: (endDay - days) * DAY, to: endDay * DAY },
      };
    };
    // the first export folds whatever the background fold has not yet, and loads the day sets into the cache
    const [catchUpMs] = await timed(() => fetch(exportUrl(30, 0).path, { headers }).then((r) => r.json()));
    log(`first export (fold catch-up + cold cache) ${ms(catchUpMs)} ms`);

    const sql = openSql(target);
    const rows = [];
    for (const days of [1, 7, 30]) {
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
          // on ClickHouse the primary database holds no raw views to recount
          if (clickhouse) break;
          const [t, b] = await timed(() => naiveVisitors({ sql, projectId: project.id, range, limit: 50, offset }));
          naive.push(t);
          expected = b;
        }
        const same = clickhouse ? 'no recount' : JSON.stringify(body) === JSON.stringify(expected);
        rows.push({ days, page: label, p50: pct(ours, 0.5), p95: pct(ours, 0.95), naiveP50: pct(naive, 0.5), same });
        log(
          `${days}d ${label}: p50 ${ms(pct(ours, 0.5))} ms, p95 ${ms(pct(ours, 0.95))} ms; naive p50 ${ms(pct(naive, 0.5))} ms; identical: ${same}`,
        );
      }
    }
    await sql.close();
    const peak = peakRssMb(child.pid!);

    let reports: ReportTiming[] = [];
    if (!SKIP_AI_REPORTS) {
      const base = `${url}/v1/analytics/${project.id}`;
      log('storing AI misses, feedback and searches…');
      const [inputMs, stored] = await timed(() =>
        ingestReportInputs({ base, key, site: { page: (u) => pathName(zipf(u)), random: rng(7), endDay }, size }),
      );
      log(`stored ${JSON.stringify(stored)} in ${ms(inputMs)} ms`);
      log(await reportCoverage({ base, key, endDay }));
      reports = await timeReports({ base, key, endDay, reps: AI_REPS, log });
      log(`server peak RSS after the reports ${peakRssMb(child.pid!)} MiB`);
    }
    if (clickhouse) {
      const reader = createClient({ url: clickhouse.url });
      const parts = await reader.query({
        query:
          'SELECT table, sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = {db:String} AND active GROUP BY table ORDER BY table',
        query_params: { db: clickhouse.database },
        format: 'JSONEachRow',
      });
      log(`ClickHouse bytes on disk: ${JSON.stringify(await parts.json())}`);
      await reader.close();
    }
    return {
      provider,
      size,
      eventsPerSecond: Math.round(accepted / ingestSeconds),
      catchUpMs,
      rows,
      peakRssMb: peak,
      reports,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await clickhouse?.close();
    await drop();
  }
}

const results = [];
for (const size of SIZES) for (const provider of PROVIDERS) results.push(await run(provider, size));

console.log(
  '\n| database | page views | ingest events/s | first export after ingest | range | page | p50 ms | p95 ms | naive p50 ms | naive ÷ p50 | same answer | server peak RSS |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  for (const row of r.rows) {
    console.log(
      `| ${r.provider} | ${r.size.toLocaleString('en')} | ${r.eventsPerSecond.toLocaleString('en')} | ${ms(r.catchUpMs)} ms | ${row.days} d | ${row.page} | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(row.naiveP50)} | ${(row.naiveP50 / row.p50).toFixed(1)}× | ${row.same === 'no recount' ? 'not recounted' : row.same ? 'yes' : 'NO'} | ${r.peakRssMb} MiB |`,
    );
  }
}

if (!SKIP_AI_REPORTS) {
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
