import type { Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig, missingForAgentJobs, type Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { systemClock } from './clock.js';
import { openDatabase } from './db/client.js';
import { migrateDatabase } from './db/migrate.js';
import { resolveServerSecret } from './settings/server-secret.js';
import { createHttpApp } from './http/app.js';
import type { AppContext } from './http/context.js';
import { healthRoutes } from './http/routes/health.js';
import { analyticsRoutes } from './http/routes/analytics.js';
import { metricsRoutes } from './http/routes/metrics.js';
import { apiDocsRoutes } from './http/routes/api-docs.js';
import { registerJobMetrics } from './jobs/job-metrics.js';
import { analyticsBreakdownRoutes } from './http/routes/analytics-breakdowns.js';
import { dashboardRoutes } from './http/routes/dashboard.js';
import { appSetupRoutes } from './http/routes/app-setup.js';
import { createWebhookMiddleware } from './github/webhook-middleware.js';
import { createProbot } from './github/create-probot.js';
import { startAgentJobs, type AgentJobs } from './jobs/start-agent-jobs.js';
import { startGitHubLifecycle } from './github/github-lifecycle.js';

export interface RunningScribe {
  server: Server;
  url: string;
  stop(): Promise<void>;
}

/** The whole service: config → database (migrated) → HTTP API + webhooks → background workers. */
export async function startScribe(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningScribe> {
  const applied = await migrateDatabase(config.database);
  if (applied.length) logger.info({ applied }, 'applied database migrations');
  const database = openDatabase(config.database);
  const { db } = database;
  const clock = systemClock;
  const secret = await resolveServerSecret({ db, configured: config.secret, clock });
  const ctx: AppContext = { config, db, database: config.database, clock, logger, secret };
  const stopJobMetrics = registerJobMetrics({ db, clock });

  for (const missing of missingForAgentJobs(config)) logger.warn(`agent jobs are disabled until you ${missing}`);

  const probot = createProbot({ config, logger });
  // The webhook side queues jobs and wakes the worker; the worker's runs answer the comments that queued them.
  let agentJobs: AgentJobs | undefined;
  const github = startGitHubLifecycle({ ctx, probot, wakeWorker: () => agentJobs?.worker?.wake() });
  const webhooks = await createWebhookMiddleware({ config, logger, appFn: github.appFn, probot });
  agentJobs = startAgentJobs({ ctx, probot, hooks: github.jobHooks });
  const jobs = agentJobs;
  const app = createHttpApp({ ctx, routes: [healthRoutes, analyticsRoutes, analyticsBreakdownRoutes, dashboardRoutes, metricsRoutes, apiDocsRoutes, jobs.routes, ...(config.github.appId ? [] : [appSetupRoutes])], webhooks: webhooks.middleware });
  const server = app.listen(config.port);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port, database: config.database.provider }, 'scribe listening');

  return {
    server,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      // Workers first: they hand their jobs back through the database, which must still be open.
      await jobs.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await github.stop();
      server.closeAllConnections();
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
  const scribe = await startScribe(config, logger);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    scribe.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().catch((err) => {
    process.stderr.write(`scribe: failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
