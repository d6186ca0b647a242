import type { AppContext } from '../context.js';
import { repositoryUrlFor } from '../../github/github-app.js';
import { originalPrompts, type JobRecord } from '../../jobs/job-store.js';
import { pullRequestStates, type PullRequestState } from '../../github/pull-request-state.js';
import type { JobResponse } from './agent-jobs-schemas.js';

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
