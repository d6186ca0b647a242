import type { Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { ConfigError, gitHubAppConfigured, loadConfig, missingForAgentJobs, type Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { systemClock, type Clock } from './clock.js';
import { openDatabase, type Db } from './db/client.js';
import { migrateDatabase } from './db/migrate.js';
import { resolveServerSecret } from './settings/server-secret.js';
import { createProbot } from './github/create-probot.js';
import { createGitHubApp } from './github/github-app.js';
import { BackgroundTasks } from './github/background-tasks.js';
import { registerJobMetrics } from './jobs/job-metrics.js';
import { createJobRunner } from './jobs/run-job.js';
import { JobWorker } from './jobs/worker.js';
import { createJobRequests } from './jobs/job-requests.js';
import { createJobEventNotifier } from './jobs/job-event-notifier.js';
import { createJobReplies } from './conversations/job-replies.js';
import { startWebhooks } from './webhooks/start-webhooks.js';
import { createAutomations, type Automations } from './automations/automations.js';
import { settleRuns } from './automations/on-run-end.js';
import { automationRunHooks } from './automations/run-hooks.js';
import { startScheduler } from './automations/schedule-runs.js';
import { createDocsDrafts, type DocsDrafts } from './reviews/docs-drafts.js';
import type { RunListener } from './jobs/job-listeners.js';
import { createReviews, type Reviews } from './reviews/reviews.js';
import { Analytics } from './analytics/analytics.js';
import { createHttpApp } from './http/app.js';
import { MAX_DELIVERY_BYTES } from './webhooks/delivery-problem.js';
import { createHttpServer } from './http/http-server.js';
import type { AppContext } from './http/context.js';
import { healthRoutesWith } from './http/routes/health.js';
import { analyticsRoutes } from './http/routes/analytics.js';
import { analyticsBreakdownRoutes } from './http/routes/analytics-breakdowns.js';
import { analyticsFeedbackRoutes } from './http/routes/analytics-feedback.js';
import { analyticsAiRoutes } from './http/routes/analytics-ai.js';
import { mcpRoutes } from './http/routes/mcp.js';
import { getProject, listProjects } from './projects/projects.js';
import { analyticsRobotsRoutes } from './http/routes/analytics-robots.js';
import { analyticsCoverageRoutes } from './http/routes/analytics-coverage.js';
import { DocsSites } from './http/mcp/docs-sites.js';
import { gitHubDocsSource } from './http/mcp/github-docs-source.js';
import { dashboardRoutes } from './http/routes/dashboard.js';
import { metricsRoutes } from './http/routes/metrics.js';
import { apiDocsRoutes } from './http/routes/api-docs.js';
import { agentJobRoutes } from './http/routes/agent-jobs.js';
import { appSetupRoutes } from './http/routes/app-setup.js';
import { automationRoutes } from './http/routes/automations.js';
import { problemRoutes } from './http/routes/problems.js';
import { analyticsMissBeaconRoutes } from './http/routes/analytics-miss-beacon.js';
import { createProblems } from './problems/problems.js';
import { outcomeEvents } from './notifications/problem-events.js';
import { createOutcomes, type Outcomes } from './outcomes/outcomes.js';
import { singleJobPresenter } from './http/routes/present-jobs.js';
import { gitHubPullRequestFiles } from './outcomes/github-pull-request-files.js';
import { automationWantsComment, gitHubOutcomeComments } from './outcomes/outcome-comment.js';
import { OUTCOME_SWEEP_EVERY_MS } from './outcomes/outcomes.js';
import { outcomeRoutes } from './http/routes/outcomes.js';
import { createPageStory } from './problems/page-story.js';
import { gitHubSitePages } from './problems/read-site-pages.js';
import { PROBLEM_AUTOMATIONS_EVERY_MS, runProblemAutomations } from './problems/run-problem-automations.js';
import { outgoingWebhookRoutes } from './http/routes/outgoing-webhooks.js';
import { eventPresenter } from './http/present-event.js';
import { createNotifier, type Notifier } from './notifications/notifier.js';
import { registerNotificationMetrics } from './notifications/notification-metrics.js';

export interface RunningScribe {
  server: Server;
  url: string;
  stop(): Promise<void>;
}

/**
 * The whole service, in named steps: config → database → GitHub → jobs → analytics → automations → reviews → HTTP and
 * webhooks → workers. Each step builds its services once, before anything that uses them; what a lower service tells
 * a higher one (stored feedback, run ends) is subscribed to here, never reached for from below.
 */
export async function startScribe(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
): Promise<RunningScribe> {
  const base = await openBase(config, logger);
  const github = connectGitHub(base);
  const jobs = startJobs(base, github);
  const analytics = openAnalytics(base);
  const { automations, docsDrafts } = startAutomations({ base, github, jobs, analytics });
  const reviews = startReviews(base, github);
  const problems = startProblems({ base, github, jobs, analytics, automations });
  const notifier = startNotifier(base, problems.outcomes);
  const edges = await serveEdges({
    base,
    github,
    jobs,
    analytics,
    automations,
    docsDrafts,
    reviews,
    problems,
    notifier,
  });
  jobs.worker?.start();
  notifier.start();
  const schedules = automations && startSchedules(base, automations);
  const problemRuns =
    automations && github.app && startProblemRuns({ base, app: github.app, jobs, automations, problems });
  const outcomeSweeps = startOutcomeSweeps(base, problems);
  logger.info({ port: edges.port, database: config.database.provider }, 'scribe listening');

  return {
    server: edges.server,
    url: `http://127.0.0.1:${edges.port}`,
    async stop() {
      // Workers first: they hand their jobs back through the database, which must still be open.
      edges.streams.abort();
      await schedules?.stop();
      await problemRuns?.stop();
      await outcomeSweeps.stop();
      await jobs.worker?.stop();
      await notifier.stop();
      await edges.close();
      await github.tasks.drain();
      edges.server.closeAllConnections();
      await jobs.events.close();
      await analytics.close();
      await base.close();
    },
  };
}

/** What every step uses: config, logger, clock, the migrated database and the server secret. */
interface Base {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Db;
  secret: string;
  /** agent jobs stay off until these are set (each a sentence of what to do) */
  missing: string[];
  close(): Promise<void>;
}

async function openBase(config: Config, logger: Logger): Promise<Base> {
  const applied = await migrateDatabase(config.database);
  if (applied.length) logger.info({ applied }, 'applied database migrations');
  const database = openDatabase(config.database);
  const { db } = database;
  const clock = systemClock;
  const secret = await resolveServerSecret({ db, configured: config.secret, clock });
  const stopJobMetrics = registerJobMetrics({ db, clock });
  const missing = missingForAgentJobs(config);
  for (const what of missing) logger.warn(`agent jobs are disabled until you ${what}`);
  const close = async () => {
    stopJobMetrics();
    await database.close();
  };
  return { config, logger, clock, db, secret, missing, close };
}

/** One Probot and one App client (one bot-identity cache) for webhooks, replies and job runs; null until configured. */
function connectGitHub(base: Base) {
  const { config, db, clock } = base;
  const logger = base.logger.child({ component: 'github' });
  const probot = createProbot({ config, logger });
  const app = probot && createGitHubApp({ probot, github: config.github });
  const tasks = new BackgroundTasks(logger);
  const replies = app && createJobReplies({ db, clock, logger, jobs: config.jobs, github: app, tasks });
  return { logger, probot, app, tasks, replies };
}
type GitHub = ReturnType<typeof connectGitHub>;

/**
 * The worker runs jobs when the App and the model are configured; requests queue them and wake it. The runner's
 * hooks (jobs/run-hooks.ts) are answered by the GitHub replies and the automations' runs, and a run's end is told to
 * both: the replies answer the comments, the automations settle their runs.
 */
function startJobs(base: Base, github: GitHub) {
  const { config, db, clock, logger, missing } = base;
  const { app, replies } = github;
  const runner =
    app &&
    replies &&
    !missing.length &&
    createJobRunner({
      db,
      github: app,
      anthropic: new Anthropic({ apiKey: config.anthropic.apiKey, baseURL: config.anthropic.baseURL }),
      jobs: config.jobs,
      hooks: { ...replies.runHooks, ...automationRunHooks({ db }) },
    });
  // Told in turn how each run ended; the docs drafts subscribe once they exist (startAutomations).
  const onRunEnd: RunListener[] = replies ? [replies.onRunEnd, (end) => settleRuns({ db, clock }, end)] : [];
  const worker =
    runner && replies
      ? new JobWorker({
          db,
          database: config.database,
          clock,
          logger: logger.child({ component: 'jobs' }),
          jobs: config.jobs,
          runner,
          onRunEnd,
        })
      : null;
  const events = createJobEventNotifier({ db, database: config.database, logger });
  const requests = createJobRequests({
    db,
    clock,
    jobs: config.jobs,
    missing,
    wake: () => worker?.wake(),
    onArchived: [(job) => worker?.checkNow(job.id), (job) => replies?.onArchived(job)],
  });
  return { worker, events, requests, onRunEnd };
}
type Jobs = ReturnType<typeof startJobs>;

/** Analytics keeps its own connection to the same database, for hot paths Prisma's per-query cost would dominate. */
function openAnalytics(base: Base): Analytics {
  const { config, secret, logger, clock } = base;
  const analytics = new Analytics({ target: config.database, secret, config: config.analytics, logger, clock });
  // in the background: fetching the operators' lists must not hold up the start (its failures are logged)
  void analytics.startRangesRefresh();
  if (config.analytics.aiRanges?.robotsFetch !== false)
    analytics.startRobotsRefresh(async () =>
      (await listProjects(base.db))
        .filter((p) => !p.disabledAt)
        .flatMap((p) => p.hostnames.map((host) => ({ projectId: p.id, host }))),
    );
  return analytics;
}

/**
 * Pushes, schedules, reader feedback and manual triggers become runs of ordinary jobs, and so do docs drafts of
 * source pull requests (both null while agent jobs are off). Feedback the analytics stored is handed to them before
 * the submission is answered; a run's end is told to the drafts (they link their pull request from the check run).
 */
function startAutomations(params: { base: Base; github: GitHub; jobs: Jobs; analytics: Analytics }): {
  automations: Automations | null;
  docsDrafts: DocsDrafts | null;
} {
  const { base, github, jobs, analytics } = params;
  if (!github.app || base.missing.length) return { automations: null, docsDrafts: null };
  const deps = {
    db: base.db,
    database: base.config.database,
    clock: base.clock,
    logger: base.logger.child({ component: 'automations' }),
    github: github.app,
    jobs: jobs.requests,
    runsPerDay: base.config.automations.runsPerDay,
  };
  const automations = createAutomations({ ...deps, feedback: analytics.readerSignals() });
  analytics.onFeedbackStored(async (stored) => void (await automations.onFeedback(stored)));
  const docsDrafts = createDocsDrafts(deps);
  jobs.onRunEnd.push((end) => docsDrafts.onRunEnd(end));
  return { automations, docsDrafts };
}

/**
 * Docs reviews of source pull requests need the App only (null until it is configured); with ANTHROPIC_API_KEY set,
 * the default model judges their findings in one bounded call.
 */
function startReviews(base: Base, github: GitHub): Reviews | null {
  const { config } = base;
  if (!github.app) return null;
  return createReviews({
    db: base.db,
    clock: base.clock,
    logger: base.logger.child({ component: 'reviews' }),
    github: github.app,
    judge: config.anthropic.apiKey
      ? {
          anthropic: new Anthropic({ apiKey: config.anthropic.apiKey, baseURL: config.anthropic.baseURL }),
          model: config.jobs.models[0],
          maxInputTokens: config.reviews.maxInputTokens,
        }
      : null,
    leaseMs: config.jobs.leaseMs,
    heartbeatMs: config.jobs.heartbeatMs,
  });
}

/**
 * The problems queue and the page story, derived from the analytics' signals; redirect candidates read the docs
 * through the App (none until it is configured). A fix is an ordinary job request. Outcomes keep a merged docs pull
 * request's pages (placed by the same docs pages) and measure them with the analytics.
 */
function startProblems(params: {
  base: Base;
  github: GitHub;
  jobs: Jobs;
  analytics: Analytics;
  automations: Automations | null;
}) {
  const { base, github, jobs, analytics, automations } = params;
  const { db, clock } = base;
  const app = github.app;
  const pages = app ? gitHubSitePages({ github: app, logger: github.logger }) : async () => [];
  const signals = analytics.problemSignals();
  return {
    problems: createProblems({ db, clock, signals, jobs: jobs.requests, pages }),
    story: createPageStory({ db, clock, signals, pages }),
    outcomes: createOutcomes({
      db,
      clock,
      pages: async (projectId) => (await pages(await getProject(db, projectId))).map((p) => p.file),
      pullRequestFiles: app ? gitHubPullRequestFiles({ db, github: app }) : async () => [],
      counts: (query) => analytics.outcomeCounts(query),
      stamps: (projectId, span) => analytics.outcomeStamps(projectId, span),
      signals: (query) => analytics.outcomeSignals(query),
      queries: (query) => analytics.outcomeQueries(query),
      deployDelayMs: base.config.outcomes.deployDelayMs,
      comment: app && base.config.outcomes.comments ? gitHubOutcomeComments({ db, github: app }) : null,
      commentWanted: automationWantsComment({
        db,
        automations: async (projectId) => (automations ? (await automations.config(projectId)).automations : []),
      }),
      // a completed window's outcome.ready and problem.status_changed webhook events, in the transaction settling it
      onSettled: outcomeEvents(clock),
      logger: base.logger.child({ component: 'outcomes' }),
      claimMs: base.config.jobs.leaseMs,
    }),
  };
}
type ProblemsQueue = ReturnType<typeof startProblems>;

/**
 * Outgoing webhooks: the stores write each change's event in its own transaction; the notifier fans them out to the
 * projects' subscriptions and sends them, rendered as the API shows their objects. It needs nothing configured.
 */
function startNotifier(base: Base, outcomes: Pick<Outcomes, 'ofJob'>): Notifier {
  const { config } = base;
  // a job event carries the job as GET …/job/{id} answers it: the route's own function
  const presentJob = singleJobPresenter({ db: base.db, config }, outcomes);
  const stopMetrics = registerNotificationMetrics({ db: base.db });
  const notifier = createNotifier({
    db: base.db,
    database: config.database,
    clock: base.clock,
    logger: base.logger.child({ component: 'notifications' }),
    policy: config.outgoingWebhooks,
    render: eventPresenter({ config, presentJob }),
    leaseMs: config.jobs.leaseMs,
    heartbeatMs: config.jobs.heartbeatMs,
    pollMs: 250,
  });
  return { ...notifier, stop: () => notifier.stop().finally(stopMetrics) };
}

/** The entry points: webhook handlers and HTTP routes, given the services they use, listening on the port. */
async function serveEdges(params: {
  base: Base;
  github: GitHub;
  jobs: Jobs;
  analytics: Analytics;
  automations: Automations | null;
  docsDrafts: DocsDrafts | null;
  reviews: Reviews | null;
  problems: ProblemsQueue;
  notifier: Notifier;
}) {
  const { base, github, jobs, analytics, automations, docsDrafts, reviews, problems, notifier } = params;
  const { config, db, clock, logger, secret } = base;
  const webhooks = await startWebhooks({
    db,
    clock,
    logger: github.logger,
    config,
    probot: github.probot,
    github: github.app,
    jobs: jobs.requests,
    automations,
    docsDrafts,
    reviews,
    tasks: github.tasks,
    onJobPullRequestClosed: async (closed) => {
      await problems.problems.onJobPullRequestClosed(closed);
      await problems.outcomes.onJobPullRequestClosed(closed);
    },
  });
  // one index of each project's docs, for the agents reading them (MCP) and the coverage report alike
  const docsSites = new DocsSites({ source: gitHubDocsSource(github.app), now: () => clock().getTime() });
  const streams = new AbortController(); // ends open event streams at shutdown, so closing the server does not wait on them
  const routes = [
    healthRoutesWith([() => analytics.readiness()]),
    analyticsRoutes({ analytics }),
    analyticsBreakdownRoutes({ analytics }),
    analyticsFeedbackRoutes({ analytics }),
    analyticsAiRoutes({ analytics }),
    problemRoutes(problems),
    outcomeRoutes(problems),
    analyticsMissBeaconRoutes({ analytics }),
    analyticsRobotsRoutes({ analytics }),
    analyticsCoverageRoutes({ analytics, sites: docsSites }),
    mcpRoutes({ analytics, sites: docsSites }),
    dashboardRoutes,
    metricsRoutes,
    apiDocsRoutes,
    agentJobRoutes({
      jobs: jobs.requests,
      events: jobs.events,
      shutdown: streams.signal,
      outcomes: problems.outcomes,
    }),
    automationRoutes({ automations, config: reviews && ((projectId) => reviews.config(projectId)) }),
    outgoingWebhookRoutes({ wake: () => notifier.wake() }),
  ];
  const ctx: AppContext = { config, db, database: config.database, clock, logger, secret };
  const app = createHttpApp({
    ctx,
    routes: gitHubAppConfigured(config.github) ? routes : [...routes, appSetupRoutes],
    webhooks: webhooks.middleware,
    webhookBodyLimit: MAX_DELIVERY_BYTES,
  });
  const server = createHttpServer(app, config.httpTimeouts).listen(config.port);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const close = async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await webhooks.stop();
  };
  return { server, port, streams, close };
}

/** Each schedule's slots, run once across processes. */
function startSchedules(base: Base, automations: Automations) {
  return startScheduler({
    clock: base.clock,
    logger: base.logger.child({ component: 'schedules' }),
    everyMs: base.config.automations.schedulePollMs,
    configs: automations.configs,
    runSlot: async (slot) => void (await automations.runSlot(slot)),
  });
}

/** `on: problems` automations look at the queue now and then (run-problem-automations.ts), one look at a time. */
function startProblemRuns(params: {
  base: Base;
  app: NonNullable<GitHub['app']>;
  jobs: Jobs;
  automations: Automations;
  problems: ProblemsQueue;
}) {
  const { base, app, jobs, automations, problems } = params;
  const logger = base.logger.child({ component: 'problem-automations' });
  let looking: Promise<unknown> = Promise.resolve();
  const look = () => {
    looking = runProblemAutomations({
      db: base.db,
      clock: base.clock,
      database: base.config.database,
      runsPerDay: base.config.automations.runsPerDay,
      github: app,
      jobs: jobs.requests,
      problems: problems.problems,
      configs: () => automations.configs(),
      logger,
    }).catch((err: unknown) => logger.error({ err }, 'the problems automations failed'));
  };
  const timer = setInterval(() => void looking.then(look), PROBLEM_AUTOMATIONS_EVERY_MS).unref();
  return {
    async stop() {
      clearInterval(timer);
      await looking;
    },
  };
}

/**
 * Completed outcome windows are looked for at start (those that completed while Scribe was down, and the window sides
 * an upgrade has not kept yet) and then now and then (outcomes.ts `sweep`), one sweep at a time.
 */
function startOutcomeSweeps(base: Base, problems: ProblemsQueue) {
  const logger = base.logger.child({ component: 'outcomes' });
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    sweeping = problems.outcomes.sweep().then(
      ({ handled, counted }) =>
        logger[handled || counted ? 'info' : 'debug']({ handled, counted }, 'looked for completed outcome windows'),
      (err: unknown) => logger.error({ err }, 'the outcome sweep failed'),
    );
  };
  sweep();
  const timer = setInterval(() => void sweeping.then(sweep), OUTCOME_SWEEP_EVERY_MS).unref();
  return {
    async stop() {
      clearInterval(timer);
      await sweeping;
    },
  };
}

async function run(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`scribe: invalid configuration: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  // Signals are taken before start-up begins: one that arrives while the service is starting (a supervisor's quick
  // restart) waits for the start to finish and then stops it cleanly, instead of killing it mid-migration.
  let scribe: RunningScribe | undefined;
  let stopSignal: string | undefined;
  const stop = (running: RunningScribe, signal: string) => {
    logger.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  const shutdown = (signal: string) => {
    if (stopSignal) return;
    stopSignal = signal;
    if (scribe) stop(scribe, signal);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  scribe = await startScribe(config, logger);
  if (stopSignal) stop(scribe, stopSignal);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().catch((err) => {
    process.stderr.write(`scribe: failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
