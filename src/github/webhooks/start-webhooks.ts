import type { RequestHandler } from 'express';
import type { Probot } from 'probot';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import type { Config } from '../../config.js';
import type { JobRequests } from '../../jobs/job-requests.js';
import type { Automations } from '../../automations/automations.js';
import type { GitHubApp } from '../github-app.js';
import { createAppSlug } from '../app-slug.js';
import type { BackgroundTasks } from '../background-tasks.js';
import { createWebhookApp } from './webhook-app.js';
import { createWebhookMiddleware } from './webhook-middleware.js';
import { markInterrupted, pruneDeliveries } from './deliveries.js';

/** How long delivery ids are kept for de-duplication; far longer than GitHub offers redelivery. */
const DELIVERY_RETENTION_MS = 30 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 6 * 3_600_000;
/** A delivery's background work takes seconds; one still unfinished after this was cut off. */
const INTERRUPTED_AFTER_MS = 15 * 60_000;

export interface Webhooks {
  /** for /api/github/webhooks: Probot's, or a 503 saying what to set */
  middleware: RequestHandler;
  /** stops pruning; the background tasks are drained by their owner */
  stop(): void;
}

/** Webhook handling for one process, with the old deliveries pruned now and then; a 503 until the App is configured. */
export async function startWebhooks(params: {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: Config;
  probot: Probot | null;
  github: GitHubApp | null;
  jobs: JobRequests;
  automations: Automations | null;
  tasks: BackgroundTasks;
}): Promise<Webhooks> {
  const { db, clock, logger, config, probot, github, tasks } = params;
  if (!probot || !github) {
    const { middleware } = await createWebhookMiddleware({ config, logger, appFn: () => undefined, probot });
    return { middleware, stop: () => undefined };
  }
  const appSlug = createAppSlug({ probot, override: config.github.appSlug });
  const prune = () =>
    tasks.run('prune webhook deliveries', async () => {
      const now = clock().getTime();
      const removed = await pruneDeliveries({ db, before: new Date(now - DELIVERY_RETENTION_MS) });
      if (removed) logger.info({ removed }, 'forgot old webhook deliveries');
      const interrupted = await markInterrupted({ db, clock, receivedBefore: new Date(now - INTERRUPTED_AFTER_MS) });
      if (interrupted) logger.warn({ interrupted }, 'webhook deliveries were interrupted by a stop and will not be processed');
    });
  prune();
  const pruning = setInterval(prune, PRUNE_EVERY_MS).unref();
  const appFn = createWebhookApp({ db, clock, logger, config, github, appSlug, jobs: params.jobs, automations: params.automations, tasks });
  const { middleware } = await createWebhookMiddleware({ config, logger, appFn, probot });
  return { middleware, stop: () => clearInterval(pruning) };
}
