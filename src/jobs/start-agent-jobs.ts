import Anthropic from '@anthropic-ai/sdk';
import type { Probot } from 'probot';
import { missingForAgentJobs } from '../config.js';
import type { AppContext } from '../http/context.js';
import type { RouteModule } from '../http/app.js';
import { agentJobRoutes } from '../http/routes/agent-jobs.js';
import { createGitHubApp } from '../github/github-app.js';
import { createJobRunner } from './run-job.js';
import { JobWorker } from './worker.js';

export interface AgentJobs {
  routes: RouteModule;
  worker: JobWorker | null;
  stop(): Promise<void>;
}

/** The agent-jobs feature of one process: its routes and, when the App and the model are configured, its worker. */
export function startAgentJobs(params: { ctx: AppContext; probot: Probot | null }): AgentJobs {
  const { ctx, probot } = params;
  const { config } = ctx;
  let worker: JobWorker | null = null;
  if (probot && missingForAgentJobs(config).length === 0) {
    const anthropic = new Anthropic({ apiKey: config.anthropic.apiKey, baseURL: config.anthropic.baseURL });
    const runner = createJobRunner({ db: ctx.db, github: createGitHubApp({ probot, github: config.github }), anthropic, jobs: config.jobs });
    worker = new JobWorker({ db: ctx.db, database: ctx.database, clock: ctx.clock, logger: ctx.logger.child({ component: 'jobs' }), jobs: config.jobs, runner });
    worker.start();
  }
  return {
    routes: agentJobRoutes({ onQueued: () => worker?.wake() }),
    worker,
    stop: async () => worker?.stop(),
  };
}
