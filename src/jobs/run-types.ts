import type Anthropic from '@anthropic-ai/sdk';
import type { JobsConfig } from '../config.js';
import type { Db } from '../db/client.js';
import type { runAgent } from '../agent/run-agent.js';
import type { GitHubApp } from '../github/github-app.js';
import type { JobRecord } from './job-store.js';
import type { JobRunHooks } from './run-hooks.js';

export interface RunOutcome {
  handledSeq: number;
  /** the commit this run pushed; null when the agent changed nothing */
  sha: string | null;
  prNumber: number | null;
  prLink: string | null;
  title: string | null;
  summary: string | null;
}

export type EmitEvent = (type: string, data?: Record<string, unknown>) => Promise<void>;

/** How a run that was not stopped ended: what it did, or the failure its user reads. */
export type RunEnd = { job: JobRecord; outcome: RunOutcome } | { job: JobRecord; error: string };

/** Runs one claimed job to a pull request (or to nothing to change); throws a JobFailure. */
export type JobRunner = (params: { job: JobRecord; signal: AbortSignal; emit: EmitEvent }) => Promise<RunOutcome>;

export interface JobRunnerDeps {
  db: Db;
  github: GitHubApp;
  anthropic: Anthropic;
  jobs: JobsConfig;
  runAgent?: typeof runAgent;
  /** what the run asks of the modules above jobs/ (run-hooks.ts); a hook left out answers nothing */
  hooks?: Partial<JobRunHooks>;
}
