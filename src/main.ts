import type { Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { ConfigError, gitHubAppConfigured, loadConfig, missingForAgentJobs, type Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { systemClock } from './clock.js';
import { openDatabase } from './db/client.js';
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
import { createJobReplies } from './github/webhooks/job-replies.js';
import { startWebhooks } from './github/webhooks/start-webhooks.js';
import { createAutomations } from './automations/automations.js';
import { startScheduler } from './automations/schedule-runs.js';
import { Analytics } from './analytics/analytics.js';
import { createHttpApp } from './http/app.js';
import type { AppContext } from './http/context.js';
import { healthRoutes } from './http/routes/health.js';
import { analyticsRoutes } from './http/routes/analytics.js';
import { analyticsBreakdownRoutes } from './http/routes/analytics-breakdowns.js';
import { analyticsFeedbackRoutes } from './http/routes/analytics-feedback.js';
import { analyticsAiRoutes } from './http/routes/analytics-ai.js';
import { dashboardRoutes } from './http/routes/dashboard.js';
import { metricsRoutes } from './http/routes/metrics.js';
import { apiDocsRoutes } from './http/routes/api-docs.js';
import { agentJobRoutes } from './http/routes/agent-jobs.js';
import { appSetupRoutes } from './http/routes/app-setup.js';
import { automationRoutes } from './http/routes/automations.js';

export interface RunningScribe {
  server: Server;
  url: string;
  stop(): Promise<void>;
}

/** The whole service: config → database (migrated) → services → HTTP routes and webhook handlers → worker. */
export async function startScribe(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningScribe> {
  const applied = await migrateDatabase(config.database);
  if (applied.length) logger.info({ applied }, 'applied database migrations');
  const database = openDatabase(config.database);
  const { db } = database;
  const clock = systemClock;
  const secret = await resolveServerSecret({ db, configured: config.secret, clock });
  const ctx: AppContext = { config, db, database: config.database, clock, logger, secret };
  const stopJobMetrics = registerJobMetrics({ db, clock });
  const missing = missingForAgentJobs(config);
  for (const what of missing) logger.warn(`agent jobs are disabled until you ${what}`);

  // GitHub: one Probot and one App client (one bot-identity cache) for webhooks, replies and job runs.
  const githubLogger = logger.child({ component: 'github' });
  const probot = createProbot({ config, logger });
  const github = probot && createGitHubApp({ probot, github: config.github });
  const tasks = new BackgroundTasks(githubLogger);
  const replies = github && createJobReplies({ db, clock, logger: githubLogger, jobs: config.jobs, github, tasks });

  // Jobs: the worker runs them (when the App and the model are configured); requests queue them and wake it.
  const runner = github && replies && !missing.length && createJobRunner({ db, github, anthropic: new Anthropic({ apiKey: config.anthropic.apiKey, baseURL: config.anthropic.baseURL }), jobs: config.jobs, messageContext: replies.messageContext, answeredOnGitHub: replies.answeredOnGitHub, pullRequestNotes: (job) => automations?.pullRequestNotes(job) ?? Promise.resolve(null), sourceFor: (job) => automations?.sourceFor(job) ?? Promise.resolve(null) });
  const worker = runner ? new JobWorker({ db, database: config.database, clock, logger: logger.child({ component: 'jobs' }), jobs: config.jobs, runner, onRunEnd: replies ? [replies.onRunEnd, (end) => automations?.onRunEnd(end) ?? Promise.resolve()] : [] }) : null;
  const jobEvents = createJobEventNotifier({ db, database: config.database, logger });
  const jobs = createJobRequests({ db, clock, jobs: config.jobs, missing, wake: () => worker?.wake(), onArchived: [(job) => worker?.checkNow(job.id), (job) => replies?.onArchived(job)] });
  // Analytics: its own connection to the same database, for hot paths Prisma's per-query cost would dominate. Stored
  // page feedback is handed to the automations (below) before it is answered.
  const analytics = new Analytics({ target: config.database, secret, config: config.analytics, logger, clock, onFeedbackStored: async (stored) => void (await automations?.onFeedback(stored)) });

  // Automations: pushes, schedules, reader feedback and manual triggers become runs of ordinary jobs; the runner and
  // the worker above call into them through functions, as they are built after the jobs they ask for.
  const automations = github && !missing.length ? createAutomations({ db, clock, logger: logger.child({ component: 'automations' }), github, jobs, runsPerDay: config.automations.runsPerDay, feedback: analytics.readerSignals() }) : null;

  // Edges: webhook handlers and HTTP routes, given the services they use.
  const webhooks = await startWebhooks({ db, clock, logger: githubLogger, config, probot, github, jobs, automations, tasks });
  const streams = new AbortController(); // ends open event streams at shutdown, so closing the server does not wait on them
  const routes = [healthRoutes, analyticsRoutes({ analytics }), analyticsBreakdownRoutes({ analytics }), analyticsFeedbackRoutes({ analytics }), analyticsAiRoutes({ analytics }), dashboardRoutes, metricsRoutes, apiDocsRoutes, agentJobRoutes({ jobs, events: jobEvents, shutdown: streams.signal }), automationRoutes({ automations })];
  const app = createHttpApp({ ctx, routes: gitHubAppConfigured(config.github) ? routes : [...routes, appSetupRoutes], webhooks: webhooks.middleware });
  const server = app.listen(config.port);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  worker?.start();
  const schedules = automations && startScheduler({ clock, logger: logger.child({ component: 'schedules' }), everyMs: config.automations.schedulePollMs, configs: automations.configs, runSlot: async (slot) => void (await automations.runSlot(slot)) });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port, database: config.database.provider }, 'scribe listening');

  return {
    server,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      // Workers first: they hand their jobs back through the database, which must still be open.
      streams.abort();
      await schedules?.stop();
      await worker?.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      webhooks.stop();
      await tasks.drain();
      server.closeAllConnections();
      await jobEvents.close();
      await analytics.close();
      stopJobMetrics();
      await database.close();
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
