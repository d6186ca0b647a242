/**
 * tsx bench/feedback-trigger.ts — what the `on: feedback` automation trigger adds to a feedback submission.
 *
 * A project with 100,000 stored feedback rows over 2,000 pages and one feedback automation on every page (with a
 * threshold it never reaches, so no run starts and only the check is timed: the last run's row for each page, and the
 * pages' feedback windows). Submissions go through ReaderSignals as the HTTP routes call it, with and without the
 * automations listening: single items (as the widget sends them) and 1,000-item server batches over 500 pages.
 * Prints p50/p95 in ms, per database. Flags: --rows N, --singles N, --batches N, --providers sqlite,postgresql.
 */
import { migrateDatabase } from '../src/db/migrate.js';
import { openDatabase } from '../src/db/client.js';
import { addProject } from '../src/projects/projects.js';
import { Analytics } from '../src/analytics/analytics.js';
import { openSql } from '../src/analytics/store/sql.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { saveConfig } from '../src/automations/config-store.js';
import { startFeedbackRuns } from '../src/automations/on-feedback.js';
import { MAX_THUMBS_DOWN } from '../src/automations/parse-config.js';
import type { AutomationDeps } from '../src/automations/automation-deps.js';
import type { DatabaseTarget } from '../src/db/database-url.js';
import { createDatabase } from './bench-server.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const ROWS = Number(arg('rows', '100000'));
const SINGLES = Number(arg('singles', '200'));
const BATCHES = Number(arg('batches', '10'));
const PAGES = 2000;
const PROVIDERS = arg('providers', 'sqlite,postgresql').split(',') as DatabaseTarget['provider'][];

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const ms = (xs: number[]) => `p50 ${quantile(xs, 0.5).toFixed(1)} ms, p95 ${quantile(xs, 0.95).toFixed(1)} ms`;

async function bench(provider: DatabaseTarget['provider']) {
  const database = await createDatabase(provider, 'feedback');
  await migrateDatabase(database.target);
  const { db, close } = openDatabase(database.target);
  const start = Date.now();
  const clock = () => new Date();
  const project = await addProject({
    db,
    clock,
    repository: 'acme/bench-docs',
    ref: 'main',
    hostnames: ['docs.acme.test'],
    installationId: null,
  });
  await saveConfig({
    db,
    clock: () => new Date(start - 60_000),
    projectId: project.id,
    sha: null,
    automations: [
      {
        id: 'readers',
        on: { kind: 'feedback', thumbsDown: MAX_THUMBS_DOWN, comment: false, pages: null },
        prompt: 'x',
        draft: false,
      },
    ],
    problems: [],
  });
  const sql = openSql(database.target);
  for (let done = 0; done < ROWS; done += 5000) {
    const rows = Array.from({ length: Math.min(5000, ROWS - done) }, (_, i) => {
      const n = done + i;
      return [project.id, start, start, `/p/${n % PAGES}`, 'thumbs_only', 'pending', n % 3 ? 1 : 0];
    });
    await sql.transaction((tx) =>
      tx.insertMany({
        table: 'AnalyticsFeedback',
        columns: [
          ['projectId', 'text'],
          ['ts', 'bigint'],
          ['receivedAt', 'bigint'],
          ['path', 'text'],
          ['source', 'text'],
          ['status', 'text'],
          ['helpful', 'int'],
        ],
        rows,
      }),
    );
  }
  await sql.close();

  // The threshold is never reached, so nothing calls GitHub or the job service.
  const deps = {
    db,
    clock,
    logger: createLogger('silent'),
    github: null,
    jobs: null,
    runsPerDay: 50,
  } as unknown as AutomationDeps;
  const base = {
    target: database.target,
    secret: 'bench-secret-bench-secret-bench-secret-00',
    config: loadConfig({}).analytics,
    logger: createLogger('silent'),
    clock,
  };
  const plain = new Analytics(base);
  const listening = new Analytics(base);
  listening.onFeedbackStored(
    async (stored) => void (await startFeedbackRuns({ ...deps, feedback: listening.readerSignals() }, stored)),
  );

  const results: Record<string, string> = {};
  for (const [label, analytics] of [
    ['without', plain],
    ['with', listening],
  ] as const) {
    const singles: number[] = [];
    for (let i = 0; i < SINGLES; i++) {
      const t = performance.now();
      await analytics.readerSignals().submitFeedback(project.id, [{ path: `/p/${(i * 7) % PAGES}`, helpful: false }]);
      singles.push(performance.now() - t);
    }
    const batches: number[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const items = Array.from({ length: 1000 }, (_, i) => ({
        path: `/p/${(b * 500 + (i % 500)) % PAGES}`,
        helpful: i % 2 === 0,
      }));
      const t = performance.now();
      await analytics.readerSignals().submitFeedback(project.id, items);
      batches.push(performance.now() - t);
    }
    results[`${label} automations: 1 item`] = ms(singles);
    results[`${label} automations: 1,000 items / 500 pages`] = ms(batches);
  }
  await plain.close();
  await listening.close();
  await close();
  await database.drop();
  console.log(`${provider}, ${ROWS.toLocaleString('en')} feedback rows over ${PAGES.toLocaleString('en')} pages:`);
  for (const [k, v] of Object.entries(results)) console.log(`  ${k.padEnd(42)} ${v}`);
}

for (const provider of PROVIDERS) await bench(provider);
