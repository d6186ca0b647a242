import Anthropic from '@anthropic-ai/sdk';
import type { Probot } from 'probot';
import { missingForAgentJobs } from '../config.js';
import type { AppContext } from '../http/context.js';
import type { RouteModule } from '../http/app.js';
import { agentJobRoutes } from '../http/routes/agent-jobs.js';
import { createGitHubApp } from '../github/github-app.js';
import { createJobRunner, type JobRunner } from './run-job.js';
import type { JobRecord } from './job-store.js';
import { JobWorker } from './worker.js';

export interface AgentJobs {
  routes: RouteModule;
  worker: JobWorker | null;
  stop(): Promise<void>;
}

/** What the GitHub side plugs into jobs: replies when a run ends, a comment when a job is archived, message context. */
export interface AgentJobHooks {
  wrapRunner?: (runner: JobRunner) => JobRunner;
  onArchived?: (job: JobRecord) => void;
  messageContext?: (job: JobRecord, seq: number) => Promise<string | null>;
  answeredOnGitHub?: (job: JobRecord, seq: number) => Promise<boolean>;
}

/** The agent-jobs feature of one process: its routes and, when the App and the model are configured, its worker. */
export function startAgentJobs(params: { ctx: AppContext; probot: Probot | null; hooks?: AgentJobHooks }): AgentJobs {
  const { ctx, probot, hooks = {} } = params;
  const { config } = ctx;
  let worker: JobWorker | null = null;
  // Ends open event streams at shutdown, so closing the HTTP server does not wait on them.
  const shutdown = new AbortController();
  if (probot && missingForAgentJobs(config).length === 0) {
    const anthropic = new Anthropic({ apiKey: config.anthropic.apiKey, baseURL: config.anthropic.baseURL });
    const plain = createJobRunner({ db: ctx.db, github: createGitHubApp({ probot, github: config.github }), anthropic, jobs: config.jobs, messageContext: hooks.messageContext, answeredOnGitHub: hooks.answeredOnGitHub });
    const runner = hooks.wrapRunner ? hooks.wrapRunner(plain) : plain;
    worker = new JobWorker({ db: ctx.db, database: ctx.database, clock: ctx.clock, logger: ctx.logger.child({ component: 'jobs' }), jobs: config.jobs, runner });
    worker.start();
  }
  return {
    routes: agentJobRoutes({
      shutdown: shutdown.signal,
      onQueued: () => worker?.wake(),
      onArchived: (job) => {
        worker?.checkNow(job.id);
        hooks.onArchived?.(job);
      },
    }),
    worker,
    stop: async () => {
      shutdown.abort();
      await worker?.stop();
    },
  };
}
