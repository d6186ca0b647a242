/**
 * The benchmark's server process: Scribe's HTTP app with the analytics routes, on the database in DATABASE_URL.
 * With the breakdowns (visitors per day, agents), AI-traffic and feedback/search routes, which bench/analytics.ts also
 * times.
 * Prints "READY <port>" when listening. Run by bench/analytics.ts, which measures its memory from outside.
 */
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { openDatabase } from '../src/db/client.js';
import { createHttpApp } from '../src/http/app.js';
import type { AppContext } from '../src/http/context.js';
import { analyticsRoutes } from '../src/http/routes/analytics.js';
import { healthRoutesWith } from '../src/http/routes/health.js';
import { analyticsAiRoutes } from '../src/http/routes/analytics-ai.js';
import { analyticsBreakdownRoutes } from '../src/http/routes/analytics-breakdowns.js';
import { analyticsFeedbackRoutes } from '../src/http/routes/analytics-feedback.js';
import { Analytics } from '../src/analytics/analytics.js';
import { problemRoutes } from '../src/http/routes/problems.js';
import { createJobRequests } from '../src/jobs/job-requests.js';
import { createProblems } from '../src/problems/problems.js';
import { createPageStory } from '../src/problems/page-story.js';
import { analyticsRobotsRoutes } from '../src/http/routes/analytics-robots.js';
import { analyticsCoverageRoutes } from '../src/http/routes/analytics-coverage.js';
import { DocsSearch } from '../src/http/mcp/docs-search.js';
import { NAVIGATION, PATHS, pathName } from './site.js';

const config = loadConfig();
const database = openDatabase(config.database);
const ctx: AppContext = {
  config,
  db: database.db,
  database: config.database,
  clock: () => new Date(),
  logger: createLogger('warn'),
  secret: config.secret ?? 'bench-secret-bench-secret-bench-secret-00',
};
const analytics = new Analytics({
  target: config.database,
  secret: ctx.secret,
  config: config.analytics,
  logger: ctx.logger,
  clock: ctx.clock,
});
// the problems queue and the page story (bench/problems.ts), over the synthetic site's pages as the docs' pages
const signals = analytics.problemSignals();
const sitePages = Array.from({ length: PATHS }, (_, i) => {
  const path = pathName(i);
  return { path, file: `docs${path}.mdx`, title: `Page ${i}` };
});
const pages = async () => sitePages;
const jobs = createJobRequests({ db: ctx.db, clock: ctx.clock, jobs: config.jobs, missing: [], wake: () => undefined });
const benchDocs = {
  sha: 'bench',
  pages: new Map(),
  navigation: NAVIGATION.map(({ group, pages }) => ({ group, pages: pages.map((path) => ({ path, title: path })) })),
  search: new DocsSearch([]),
};
const app = createHttpApp({
  ctx,
  routes: [
    healthRoutesWith([() => analytics.readiness()]),
    analyticsRoutes({ analytics }),
    analyticsBreakdownRoutes({ analytics }),
    analyticsAiRoutes({ analytics }),
    analyticsFeedbackRoutes({ analytics }),
    problemRoutes({
      problems: createProblems({ db: ctx.db, clock: ctx.clock, signals, jobs, pages }),
      story: createPageStory({ db: ctx.db, clock: ctx.clock, signals, pages }),
    }),
    analyticsRobotsRoutes({ analytics }),
    // the site's navigation as its docs repository would give it: coverage is timed for its analytics, not for
    // reading and indexing a repository (done once per commit, apart from reports)
    analyticsCoverageRoutes({ analytics, sites: { get: async () => benchDocs } }),
  ],
  webhooks: (_req, res) => void res.status(404).end(),
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
});
// the naive queries the benchmark compares against can leave a connection idle for minutes
server.keepAliveTimeout = 900_000;

// lets --cpu-prof write its profile when the benchmark stops the server
process.on('SIGTERM', () => process.exit(0));

if (process.env.BENCH_MEMORY_LOG) {
  setInterval(() => {
    const m = process.memoryUsage();
    const mb = (n: number) => Math.round(n / 1_048_576);
    process.stderr.write(
      `memory rss ${mb(m.rss)} heapUsed ${mb(m.heapUsed)} heapTotal ${mb(m.heapTotal)} external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)}\n`,
    );
  }, 5000).unref();
}
