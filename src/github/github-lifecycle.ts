import type { ApplicationFunction, Probot } from 'probot';
import type { AppContext } from '../http/context.js';
import type { AgentJobHooks } from '../jobs/start-agent-jobs.js';
import { createGitHubApp } from './github-app.js';
import { createAppSlug } from './app-slug.js';
import { createJobReplies } from './job-replies.js';
import { BackgroundTasks } from './background-tasks.js';
import { createWebhookApp } from './webhooks/webhook-app.js';
import { markInterrupted, pruneDeliveries } from './webhooks/deliveries.js';

/** How long delivery ids are kept for de-duplication; far longer than GitHub offers redelivery. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 6 * 3_600_000;
/** A delivery's background work takes seconds; one still unfinished after this was cut off. */
const INTERRUPTED_AFTER_MS = 15 * 60_000;

export interface GitHubLifecycle {
  appFn: ApplicationFunction;
  jobHooks: AgentJobHooks;
  /** waits for webhook work and replies already started */
  stop(): Promise<void>;
}

/** Webhook handling and job replies for one process; inert until the GitHub App is configured. */
export function startGitHubLifecycle(params: { ctx: AppContext; probot: Probot | null; wakeWorker: () => void }): GitHubLifecycle {
  const { ctx, probot } = params;
  if (!probot) return { appFn: () => undefined, jobHooks: {}, stop: async () => undefined };
  const logger = ctx.logger.child({ component: 'github' });
  const tasks = new BackgroundTasks(logger);
  const github = createGitHubApp({ probot, github: ctx.config.github });
  const appSlug = createAppSlug({ probot, override: ctx.config.github.appSlug });
  const prune = () =>
    tasks.run('prune webhook deliveries', async () => {
      const now = ctx.clock().getTime();
      const removed = await pruneDeliveries({ db: ctx.db, before: new Date(now - DELIVERY_RETENTION_MS) });
      if (removed) logger.info({ removed }, 'forgot old webhook deliveries');
      const interrupted = await markInterrupted({ db: ctx.db, clock: ctx.clock, receivedBefore: new Date(now - INTERRUPTED_AFTER_MS) });
      if (interrupted) logger.warn({ interrupted }, 'webhook deliveries were interrupted by a stop and will not be processed');
    });
  prune();
  const pruning = setInterval(prune, PRUNE_EVERY_MS).unref();
  return {
    appFn: createWebhookApp({ db: ctx.db, clock: ctx.clock, logger, config: ctx.config, github, appSlug, wakeWorker: params.wakeWorker, tasks }),
    jobHooks: createJobReplies({ db: ctx.db, clock: ctx.clock, logger, jobs: ctx.config.jobs, github, tasks }),
    stop: async () => {
      clearInterval(pruning);
      await tasks.drain();
    },
  };
}
