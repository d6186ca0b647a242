import type { AppContext } from '../context.js';
import { repositoryUrlFor } from '../../github/github-app.js';
import { originalPrompts, type JobRecord } from '../../jobs/job-store.js';
import { pullRequestStates, type PullRequestState } from '../../github/pull-request-state.js';
import type { JobResponse } from './agent-jobs-schemas.js';
import type { Outcomes } from '../../outcomes/outcomes.js';

/**
 * The job as the API shows it. `repositoryUrl` turns "owner/name" into the web address on the configured GitHub host;
 * `pr` is the recorded state of the job's pull request (a pull request with no recorded event is open).
 */
export function toJobResponse(params: {
  job: JobRecord;
  repositoryUrl: (repository: string) => string;
  pr?: PullRequestState;
  prompt?: string;
}): JobResponse {
  const { job, pr, prompt } = params;
  return {
    id: job.id,
    status: job.status,
    source: { repository: params.repositoryUrl(job.repository), ref: job.branch },
    model: job.model,
    prLink: job.prLink,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
    archivedAt: job.archivedAt ? job.archivedAt.toISOString() : null,
    error: job.status === 'failed' ? job.error : null,
    summary: job.summary,
    usage: { inputTokens: job.inputTokens, outputTokens: job.outputTokens },
    pr: pr ?? (job.prLink ? { state: 'open', merged: false, mergedAt: null } : null),
    prompt: prompt ?? null,
    cause: job.cause ? (JSON.parse(job.cause) as JobResponse['cause']) : null,
  };
}

/**
 * Jobs as the API shows them, a page at once: the pull request state GitHub reported (merged, closed) lives with the
 * GitHub module, the original prompt with the job's messages.
 */
export function jobPresenter(ctx: Pick<AppContext, 'db' | 'config'>): (page: JobRecord[]) => Promise<JobResponse[]> {
  const view = repositoryUrlFor(ctx.config.github);
  return async (page) => {
    const ids = page.map((job) => job.id);
    const [states, prompts] = await Promise.all([pullRequestStates(ctx.db, page), originalPrompts(ctx.db, ids)]);
    return page.map((job) =>
      toJobResponse({ job, repositoryUrl: view, pr: states.get(job.id), prompt: prompts.get(job.id) }),
    );
  };
}

/** A job as `GET …/job/{id}` answers it: as listed, plus its `outcome` (null until its pull request merges). */
export type PresentJob = (projectId: string, job: JobRecord) => Promise<JobResponse & { outcome: unknown }>;

/**
 * The one way a single job is shown: by `GET …/job/{id}` and in the outgoing webhooks' job events alike, so a
 * receiver parses the same object whether it polls or is pushed to. `outcomes` null: outcomes are not wired.
 */
export function singleJobPresenter(
  ctx: Pick<AppContext, 'db' | 'config'>,
  outcomes: Pick<Outcomes, 'ofJob'> | null | undefined,
): PresentJob {
  const present = jobPresenter(ctx);
  return async (projectId, job) => {
    const outcome = (await outcomes?.ofJob(projectId, job.id)) ?? null;
    return { ...(await present([job]))[0], outcome };
  };
}
