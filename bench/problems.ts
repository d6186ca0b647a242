/**
 * The problems queue and a page's story at scale (`npm run bench:problems`): a synthetic site of N page views over
 * 30 days (bench/site.ts), with AI agents' misses, feedback and searches stored through the API as bench/analytics.ts
 * stores them — 100,000 feedback entries and 500,000 searches at 10M views, scaled with N — then, each in a new
 * server process, the first call and the warm p50 of `GET /problems` and of `GET /page` for the most viewed page
 * over the 30 days. Targets: first call ≤ 1 s, warm p50 ≤ 150 ms, on every database asked.
 *
 * Options: --sizes 10000000 --db sqlite,postgresql --feedback 100000 --searches 500000 (both per 10M views)
 * --reps 7 --warm-ups 10.
 */
import type { DatabaseTarget } from '../src/db/database-url.js';
import { createDatabase, createProject, startServer } from './bench-server.js';
import { ingestReportInputs } from './ai-reports.js';
import { DAY, ingestViews, pathName, rng, zipf } from './site.js';
import { ms, thirtyDays, timeOnNewServer, type TargetReport } from './report-targets.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const SIZES = arg('sizes', '10000000').split(',').map(Number);
const PROVIDERS = arg('db', 'sqlite,postgresql').split(',') as DatabaseTarget['provider'][];
const FEEDBACK_PER_10M = Number(arg('feedback', '100000'));
const SEARCHES_PER_10M = Number(arg('searches', '500000'));
const REPS = Number(arg('reps', '7'));
const WARM_UPS = Number(arg('warm-ups', '10'));
const FIRST_MS = 1000;
const WARM_MS = 150;

interface Row {
  provider: string;
  size: number;
  feedback: number;
  searches: number;
  report: string;
  firstMs: number;
  p50: number;
  rows: number;
}

/** What an answer lists: problems, or the page's days with visitors (so a timing of an empty answer shows). */
function rowsOf(report: string, body: string): number {
  const parsed = JSON.parse(body) as { problems?: unknown[]; days?: { human: number; ai: number }[] };
  return report === 'problems' ? parsed.problems!.length : parsed.days!.filter((d) => d.human + d.ai > 0).length;
}

async function run(provider: DatabaseTarget['provider'], size: number): Promise<Row[]> {
  const log = (msg: string) => console.error(`[problems ${provider} ${size.toLocaleString('en')}] ${msg}`);
  const { target, drop } = await createDatabase(provider, 'problems');
  const { projectId, key } = await createProject(target, `bench/problems-${provider}`);
  let { child, url } = await startServer(target);
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  const endDay = Math.floor(Date.now() / DAY);
  try {
    const { accepted, seconds } = await ingestViews({ url, projectId, key, size, endDay });
    log(`ingested ${accepted} page views in ${seconds.toFixed(1)} s`);
    const counts = {
      feedback: Math.round((FEEDBACK_PER_10M * size) / 10_000_000),
      searches: Math.round((SEARCHES_PER_10M * size) / 10_000_000),
    };
    const base = `${url}/v1/analytics/${projectId}`;
    const stored = await ingestReportInputs({
      base,
      key,
      site: { page: (u) => pathName(zipf(u)), random: rng(7), endDay },
      size,
      counts,
    });
    log(`stored ${JSON.stringify(stored)}`);
    const { dates } = thirtyDays(endDay);
    // the most viewed page of the range: the story with the most to read
    const top = (await (
      await fetch(`${base}/views?${dates}&limit=1`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { views: { path: string }[] };
    const page = top.views[0]!.path;
    const reports: TargetReport[] = [
      { name: 'problems', path: 'problems', query: '&limit=50', pageViews: false, raw: async () => null },
      {
        name: `page (${page})`,
        path: 'page',
        query: `&path=${encodeURIComponent(page)}`,
        pageViews: true,
        raw: async () => null,
      },
    ];
    const rows: Row[] = [];
    for (const report of reports) {
      const timing = await timeOnNewServer({
        restart: async () => {
          await stop();
          ({ child, url } = await startServer(target));
          return url;
        },
        projectId,
        key,
        report,
        dates,
        reps: REPS,
        warmUps: WARM_UPS,
      });
      const row = {
        provider,
        size,
        ...counts,
        report: report.name,
        firstMs: timing.firstMs,
        p50: timing.p50,
        rows: rowsOf(report.path, timing.body),
      };
      log(`${row.report}: first ${ms(row.firstMs)} ms, warm p50 ${ms(row.p50)} ms, ${row.rows} rows`);
      rows.push(row);
    }
    return rows;
  } finally {
    if (child.exitCode === null && child.signalCode === null) await stop();
    await drop();
  }
}

const all: Row[] = [];
for (const size of SIZES) for (const provider of PROVIDERS) all.push(...(await run(provider, size)));
const mark = (x: number, limit: number) => `${ms(x)}${x > limit ? ' ✗' : ''}`;
console.log(
  '\n| database | page views | feedback | searches | report | first call in a new process ms (≤ 1 s) | warm p50 ms (≤ 150 ms) | rows |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of all)
  console.log(
    `| ${r.provider} | ${r.size.toLocaleString('en')} | ${r.feedback.toLocaleString('en')} | ${r.searches.toLocaleString('en')} | ${r.report} | ${mark(r.firstMs, FIRST_MS)} | ${mark(r.p50, WARM_MS)} | ${r.rows} |`,
  );
const missed = all.filter((r) => r.firstMs > FIRST_MS || r.p50 > WARM_MS);
if (missed.length) console.log(`\nTargets missed: ${missed.map((r) => `${r.provider} ${r.report}`).join(', ')}`);
