import type { RequestHandler } from 'express';
import type { Probot } from 'probot';
import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { Config } from '../config.js';
import type { JobRequests } from '../jobs/job-requests.js';
import type { Automations } from '../automations/automations.js';
import type { Reviews } from '../reviews/reviews.js';
import type { GitHubApp } from '../github/github-app.js';
import type { DocsDrafts } from '../reviews/docs-drafts.js';
import type { JobPullRequestClosed } from './webhook-deps.js';
import { createAppSlug } from './app-slug.js';
import type { BackgroundTasks } from '../github/background-tasks.js';
import { createWebhookApp } from './webhook-app.js';
import { createWebhookMiddleware } from './webhook-middleware.js';
import { pruneDeliveries } from './deliveries.js';
import { createDeliveryWorker } from './delivery-worker.js';
import { DAY_MS, HOUR_MS } from '../calendar.js';

/** How long delivery ids are kept for de-duplication; far longer than GitHub offers redelivery. */
const DELIVERY_RETENTION_MS = 30 * DAY_MS;
const PRUNE_EVERY_MS = 6 * HOUR_MS;

export interface Webhooks {
  /** for /api/github/webhooks: Probot's, or a 503 saying what to set */
  middleware: RequestHandler;
  /** stops pruning and the delivery worker (waiting for the deliveries it is processing) */
  stop(): Promise<void>;
}

/**
 * Webhook handling for one process: deliveries stored as they arrive and processed by the delivery worker, old ones
 * pruned now and then; a 503 until the App is configured.
 */
export async function startWebhooks(params: {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: Config;
  probot: Probot | null;
  github: GitHubApp | null;
  jobs: JobRequests;
  automations: Automations | null;
  docsDrafts: DocsDrafts | null;
  reviews: Reviews | null;
  tasks: BackgroundTasks;
  onJobPullRequestClosed?: JobPullRequestClosed;
}): Promise<Webhooks> {
  const { db, clock, logger, config, probot, github, tasks } = params;
  if (!probot || !github) {
    const { middleware } = await createWebhookMiddleware({ config, logger, appFn: () => undefined, probot });
    return { middleware, stop: async () => undefined };
  }
  const appSlug = createAppSlug({ probot, override: config.github.appSlug });
  const prune = () =>
    tasks.run('prune webhook deliveries', async () => {
      const now = clock().getTime();
      const removed = await pruneDeliveries({ db, before: new Date(now - DELIVERY_RETENTION_MS) });
      if (removed) logger.info({ removed }, 'forgot old webhook deliveries');
    });
  prune();
  const pruning = setInterval(prune, PRUNE_EVERY_MS).unref();
  // Deliveries are leased, renewed and polled for like jobs, with the jobs' settings.
  const worker = createDeliveryWorker({
    db,
    clock,
    logger,
    config,
    github,
    appSlug,
    jobs: params.jobs,
    automations: params.automations,
    docsDrafts: params.docsDrafts,
    reviews: params.reviews,
    onJobPullRequestClosed: params.onJobPullRequestClosed,
    database: config.database,
    leaseMs: config.jobs.leaseMs,
    heartbeatMs: config.jobs.heartbeatMs,
    pollMs: config.jobs.pollMs,
  });
  worker.start();
  const appFn = createWebhookApp({ db, clock, logger, wake: worker.wake });
  const { middleware } = await createWebhookMiddleware({ config, logger, appFn, probot });
  return {
    middleware,
    async stop() {
      clearInterval(pruning);
      await worker.stop();
    },
  };
}
