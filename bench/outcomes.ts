/**
 * tsx bench/outcomes.ts — the outcomes of merged docs pull requests over the analytics benchmark's site (bench/site.ts).
 *
 * Ingests `--size` page views (default 10,000,000) over 30 days through the server, records `--merges` merged docs
 * pull requests (default 1,000; each changing 1–4 pages of the site, one in ten moving one, merged between 23 and 14
 * days ago so their 7-day windows hold traffic on both sides), then times, in process as the routes call them:
 * one job's outcome as a reader first opens it (`--cold` jobs, each in a new instance whose cache is empty), before
 * the outcome sweep ever ran and after the sweep a running service makes every 10 minutes (timed: it counts every
 * merge's ended window sides); the first list call (GET /v1/analytics/{projectId}/outcomes, 20 a page, the range
 * holding every merge; a new instance), the list warm, and one job's outcome after the list (GET job's `outcome`).
 * Targets: list warm p50 ≤ 200 ms, one outcome ≤ 100 ms, first call ≤ 1 s. Flags: --size N, --merges N, --reps N,
 * --cold N, --providers sqlite,postgresql.
 */
import { Analytics } from '../src/analytics/analytics.js';
import { openDatabase } from '../src/db/client.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { getProject } from '../src/projects/projects.js';
import { createOutcomes } from '../src/outcomes/outcomes.js';
import { recordDocsMerge } from '../src/outcomes/merge-store.js';
import type { ChangedPage } from '../src/outcomes/changed-pages.js';
import type { DatabaseTarget } from '../src/db/database-url.js';
import { createDatabase, createProject, startServer } from './bench-server.js';
import { DAY, PATHS, ingestViews, pathName, rng } from './site.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const SIZE = Number(arg('size', '10000000'));
const MERGES = Number(arg('merges', '1000'));
const REPS = Number(arg('reps', '7'));
/** jobs whose outcome is read once each in a new instance (its cache empty) */
const COLD = Number(arg('cold', '5'));
const PROVIDERS = arg('providers', 'sqlite,postgresql').split(',') as DatabaseTarget['provider'][];

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length - 1) * p))];
const ms = (x: number) => (x < 10 ? x.toFixed(1) : Math.round(x).toString());
async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const result = await fn();
  return [performance.now() - t, result];
}

async function run(provider: DatabaseTarget['provider']) {
  const log = (msg: string) => console.error(`[${provider} ${SIZE.toLocaleString('en')}] ${msg}`);
  const { target, drop } = await createDatabase(provider, 'outcomes');
  const { projectId, key } = await createProject(target, `bench/outcomes-${provider}`);
  const { child, url } = await startServer(target);
  const endDay = Math.floor(Date.now() / DAY);
  const database = openDatabase(target);
  const config = loadConfig({ SCRIBE_SECRET: 'bench-secret-bench-secret-bench-secret-00' });
  const clock = () => new Date();
  const openAnalytics = () =>
    new Analytics({
      target,
      secret: 'bench-secret-bench-secret-bench-secret-00',
      config: config.analytics,
      logger: createLogger('silent'),
      clock,
      autoFold: false,
    });
  let analytics = openAnalytics();
  try {
    log('ingesting…');
    const { accepted, seconds } = await ingestViews({ url, projectId, key, size: SIZE, endDay });
    log(`ingested ${accepted} in ${seconds.toFixed(1)} s`);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    // what the server's fold had not reached yet, folded here (as a running server's schedule would), so the
    // outcomes are timed as a running service reads them; then a new instance, its cache empty, for the first call
    const [foldMs] = await timed(() => analytics.fold());
    log(`fold caught up in ${ms(foldMs)} ms`);
    await analytics.close();
    analytics = openAnalytics();

    const random = rng(35);
    const jobs: string[] = [];
    for (let m = 0; m < MERGES; m++) {
      const count = 1 + Math.floor(random() * 4);
      const pages: ChangedPage[] = [];
      for (let p = 0; p < count; p++) {
        // popular pages more often, as docs work goes where readers are
        const page = Math.floor(random() ** 3 * PATHS);
        pages.push(
          p === 0 && m % 10 === 0
            ? { path: pathName(page), change: 'moved', from: pathName((page + 1) % PATHS) }
            : { path: pathName(page), change: 'edited' },
        );
      }
      const jobId = `job_bench_${String(m).padStart(5, '0')}`;
      jobs.push(jobId);
      await recordDocsMerge({
        db: database.db,
        clock,
        merge: {
          jobId,
          projectId,
          repository: 'bench/docs',
          number: m + 1,
          mergedAt: new Date((endDay - 23) * DAY + Math.floor(random() * 9 * DAY)),
          pages,
        },
      });
    }
    const outcomesOf = (read: Analytics) =>
      createOutcomes({
        db: database.db,
        clock,
        pages: async () => [],
        pullRequestFiles: async () => [],
        counts: (query) => read.outcomeCounts(query),
        stamps: (projectId, span) => read.outcomeStamps(projectId, span),
        signals: (query) => read.outcomeSignals(query),
        queries: (query) => read.outcomeQueries(query),
        deployDelayMs: config.outcomes.deployDelayMs,
      });
    // one job's outcome as a reader first opens it: each in a new instance, nothing in its cache
    const coldJobs = Array.from({ length: COLD }, () => jobs[Math.floor(random() * jobs.length)]);
    const readCold = async () => {
      const took: number[] = [];
      for (const job of coldJobs) {
        took.push((await timed(() => outcomesOf(analytics).ofJob(projectId, job)))[0]);
        await analytics.close();
        analytics = openAnalytics();
      }
      return took;
    };
    // before the outcome sweep ever ran (as just after an upgrade)
    const unswept = await readCold();
    // the sweep a running service makes every 10 minutes counts each merge's ended window sides once (kept across
    // restarts); then the same jobs again, and a new instance, its cache empty, for the first list call
    const [sweepMs, swept] = await timed(() => outcomesOf(analytics).sweep());
    log(`sweep counted the ended window sides of ${swept.counted} merges in ${ms(sweepMs)} ms`);
    const cold = await readCold();
    const outcomes = outcomesOf(analytics);
    const project = await getProject(database.db, projectId);
    const query = { dateFrom: (endDay - 30) * DAY, dateTo: endDay * DAY, limit: 20 };
    const [first, listed] = await timed(() => outcomes.list(project, query));
    log(
      `first list call ${ms(first)} ms (${listed.outcomes.length} of ${MERGES}; summary ${JSON.stringify(listed.summary)})`,
    );
    const warm: number[] = [];
    for (let i = 0; i < REPS; i++) warm.push((await timed(() => outcomes.list(project, query)))[0]);
    const one: number[] = [];
    for (let i = 0; i < REPS * 5; i++)
      one.push((await timed(() => outcomes.ofJob(projectId, jobs[Math.floor(random() * jobs.length)])))[0]);
    const verdict = (x: number, target: number) => `${ms(x)} ms ${x <= target ? '✓' : '✗'} (≤ ${target})`;
    console.log(
      `| ${provider} | ${SIZE.toLocaleString('en')} | ${MERGES} | first ${verdict(first, 1000)} | list warm p50 ${verdict(pct(warm, 0.5), 200)} | one outcome p50 ${verdict(pct(one, 0.5), 100)}, p95 ${ms(pct(one, 0.95))} ms | cold p50 ${verdict(pct(cold, 0.5), 100)}, max ${ms(Math.max(...cold))} ms (before any sweep: p50 ${ms(pct(unswept, 0.5))}, max ${ms(Math.max(...unswept))} ms) | ${(sweepMs / 1000).toFixed(1)} s |`,
    );
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await analytics.close();
    await database.close();
    await drop();
  }
}

console.log(
  '| Database | Page views | Merges | First list call | List warm | One job’s outcome | One job’s outcome, cold | Sweep counting every merge |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const provider of PROVIDERS) await run(provider);
