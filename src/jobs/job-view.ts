import { z } from 'zod';
import { JOB_STATUSES } from './job-status.js';
import type { JobRecord } from './job-store.js';

/** The job's pull request as GitHub last reported it (merged or closed without merge, or reopened). */
export const JobPullRequestState = z.object({ state: z.enum(['open', 'closed']), merged: z.boolean(), mergedAt: z.string().nullable() });
export type JobPullRequestState = z.infer<typeof JobPullRequestState>;

/** The job object the API returns: the AgentJob schema of the compatible API plus Scribe's own fields. */
export const JobResponse = z.object({
  id: z.string(),
  status: z.enum(JOB_STATUSES),
  source: z.object({ repository: z.string(), ref: z.string() }),
  model: z.string(),
  prLink: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  archivedAt: z.string().nullable(),
  error: z.string().nullable(),
  summary: z.string().nullable(),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }),
  pr: JobPullRequestState.nullable(),
  /** the job's original instruction (follow-ups are in its events) */
  prompt: z.string().nullable(),
});
export type JobResponse = z.infer<typeof JobResponse>;

export const JobListResponse = z.object({ jobs: z.array(JobResponse), hasMore: z.boolean() });

/**
 * `repositoryUrl` turns "owner/name" into the web address on the configured GitHub host; `pr` is the recorded state
 * of the job's pull request (a pull request with no recorded event is open).
 */
export function toJobResponse(job: JobRecord, repositoryUrl: (repository: string) => string, pr?: JobPullRequestState, prompt?: string): JobResponse {
  return {
    id: job.id,
    status: job.status,
    source: { repository: repositoryUrl(job.repository), ref: job.branch },
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
  };
}
