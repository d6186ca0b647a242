import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { JobsConfig } from '../config.js';
import { Conflict, Invalid, Unavailable } from '../errors.js';
import { branchName } from '../git/branch-name.js';
import { addMessage, archiveJob, createJob, getJob, messageByRequestKey, type JobRecord } from './job-store.js';
import { enforceJobRateLimit } from './rate-limit.js';
import type { ArchiveListener } from './job-listeners.js';

/** The longest instruction a job or a follow-up accepts, from the API or from a GitHub comment. */
export const MAX_PROMPT_LENGTH = 20_000;

/** 503: agent jobs cannot run on this server; `missing` says what the operator still has to set. */
export class JobsNotConfigured extends Unavailable {
  constructor(readonly missing: string[]) {
    super(`Agent jobs are not configured on this server: ${missing.join('; ')}`);
  }
}

export interface NewJob {
  project: { id: string; repository: string; ref: string };
  prompt: string;
  /** the text the branch name is made from */
  branchFrom: string;
  ref?: string;
  /** one of the configured models; the first when absent */
  model?: string;
  draft?: boolean;
  /**
   * Names the request (a GitHub comment, an automation run): asked again with the same key — a retry after a crash
   * between storing the job and recording where it came from — it returns the job the first asking stored, without
   * counting against the rate limit, and runs `beforeWake` again.
   */
  requestKey?: string;
  /** what started the job beyond its prompt, kept on it as JSON (the problems a fix names) */
  cause?: unknown;
  /** what the caller records with the job (where to answer, say) before a worker may pick it up */
  beforeWake?: (job: JobRecord) => Promise<void>;
}

export interface FollowUp {
  projectId: string;
  jobId: string;
  prompt: string;
  /** as `NewJob.requestKey`: the message the first asking added is returned */
  requestKey?: string;
  beforeWake?: (job: JobRecord, seq: number) => Promise<void>;
}

/**
 * How a job is asked for, whoever asks (the API or a GitHub comment): refused while jobs are not configured,
 * counted against the project's rate limit, stored, then this process's worker is woken.
 */
export interface JobRequests {
  create(request: NewJob): Promise<JobRecord>;
  /** a follow-up message on an existing job, with the `seq` it was given */
  followUp(request: FollowUp): Promise<{ job: JobRecord; seq: number }>;
  /** archives the job (idempotent) and tells every subscriber, e.g. the worker running it */
  archive(params: { projectId: string; jobId: string }): Promise<JobRecord>;
}

export function createJobRequests(params: {
  db: Db;
  clock: Clock;
  jobs: JobsConfig;
  /** what agent jobs still need (config.ts `missingForAgentJobs`); empty when they can run */
  missing: string[];
  /** a job was queued in this process: look for it now rather than at the next poll */
  wake: () => void;
  /** told of each archive (job-listeners.ts) */
  onArchived?: ArchiveListener[];
}): JobRequests {
  const { db, clock, jobs, missing } = params;
  const requireConfigured = () => {
    if (missing.length) throw new JobsNotConfigured(missing);
  };
  const rateLimit = (projectId: string) => enforceJobRateLimit({ db, clock, projectId, perHour: jobs.ratePerHour });
  const askedBefore = (projectId: string, requestKey: string | undefined) =>
    requestKey === undefined ? null : messageByRequestKey(db, projectId, requestKey);
  return {
    async create(request) {
      requireConfigured();
      const model = request.model ?? jobs.models[0];
      if (!jobs.models.includes(model))
        throw new Invalid('Invalid job request', [{ message: `model must be one of ${jobs.models.join(', ')}` }]);
      const earlier = await askedBefore(request.project.id, request.requestKey);
      if (earlier) {
        await request.beforeWake?.(earlier.job);
        params.wake();
        return earlier.job;
      }
      await rateLimit(request.project.id);
      const job = await createJob({
        db,
        clock,
        projectId: request.project.id,
        repository: request.project.repository,
        baseRef: request.ref ?? request.project.ref,
        branch: (id) => branchName(id, request.branchFrom),
        model,
        draft: request.draft ?? false,
        prompt: request.prompt.slice(0, MAX_PROMPT_LENGTH),
        requestKey: request.requestKey,
        cause: request.cause,
      });
      await request.beforeWake?.(job);
      params.wake();
      return job;
    },

    async followUp(request) {
      const earlier = await askedBefore(request.projectId, request.requestKey);
      if (earlier) {
        await request.beforeWake?.(earlier.job, earlier.seq);
        params.wake();
        return earlier;
      }
      // Refused before the rate limit: a message that cannot be accepted must not use up the budget.
      if ((await getJob(db, request.projectId, request.jobId)).status === 'archived')
        throw new Conflict('Job is archived; create a new job instead');
      requireConfigured();
      await rateLimit(request.projectId);
      const added = await addMessage({
        db,
        clock,
        projectId: request.projectId,
        jobId: request.jobId,
        prompt: request.prompt.slice(0, MAX_PROMPT_LENGTH),
        requestKey: request.requestKey,
      });
      await request.beforeWake?.(added.job, added.seq);
      params.wake();
      return added;
    },

    async archive({ projectId, jobId }) {
      const job = await archiveJob({ db, clock, projectId, jobId });
      for (const listener of params.onArchived ?? []) listener(job);
      return job;
    },
  };
}
