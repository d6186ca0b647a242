import type Anthropic from '@anthropic-ai/sdk';
import type { JobsConfig } from '../config.js';
import type { Db } from '../db/client.js';
import type { runAgent } from '../agent/run-agent.js';
import type { GitHubApp } from '../github/github-app.js';
import type { JobRecord } from './job-store.js';

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

/** Told of every run end; what it does (answer on GitHub, say) happens before the job leaves `active`. */
export type RunListener = (end: RunEnd) => Promise<void>;

/** Runs one claimed job to a pull request (or to nothing to change); throws a JobFailure. */
export type JobRunner = (params: { job: JobRecord; signal: AbortSignal; emit: EmitEvent }) => Promise<RunOutcome>;

export interface JobRunnerDeps {
  db: Db;
  github: GitHubApp;
  anthropic: Anthropic;
  jobs: JobsConfig;
  runAgent?: typeof runAgent;
  /** extra context for the message a run carries out (e.g. the file and line of the review comment it came from) */
  messageContext?: (job: JobRecord, seq: number) => Promise<string | null>;
  /** whether the message came from a GitHub comment that gets its own reply (so no separate follow-up comment) */
  answeredOnGitHub?: (job: JobRecord, seq: number) => Promise<boolean>;
  /** the source repository and commit a run reads as context (an automation's push), or null */
  sourceFor?: (job: JobRecord) => Promise<{ repository: string; sha: string } | null>;
  /** what the pull request lists instead of the prompts (an automation's covered source changes); null for none */
  pullRequestNotes?: (job: JobRecord) => Promise<string | null>;
}
