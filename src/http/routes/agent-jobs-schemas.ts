import { z } from 'zod';
import { offsetPaging } from './paging-schemas.js';
import { JOB_STATUSES } from '../../jobs/job-status.js';
import { MAX_PROMPT_LENGTH } from '../../jobs/job-requests.js';

// git check-ref-format, simplified (the same rule projects use for their ref).
const REF = /^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*@\{)[^\s~^:?*[\\\x00-\x1f\x7f]+(?<![./])$/;

const prompt = z
  .string({ error: 'prompt must be a string' })
  .min(1, 'prompt must not be empty')
  .max(MAX_PROMPT_LENGTH, `prompt must be at most ${MAX_PROMPT_LENGTH} characters`)
  .refine((p) => p.trim().length > 0, 'prompt must not be blank');

export const CreateJobRequest = z
  .object({
    prompt,
    ref: z.string({ error: 'ref must be a string' }).max(255).regex(REF, 'ref must be a valid branch name').optional(),
    model: z.string({ error: 'model must be a string' }).optional(),
    draft: z
      .boolean({ error: 'draft must be true or false' })
      .optional()
      .describe('Open the pull request as a draft (default false).'),
    asDraft: z
      .boolean({ error: 'asDraft must be true or false' })
      .optional()
      .describe("The compatible service's name for `draft`; if both are sent they must agree."),
  })
  .refine(
    (r) => r.draft === undefined || r.asDraft === undefined || r.draft === r.asDraft,
    'draft and asDraft must agree when both are sent',
  );
export type CreateJobRequest = z.infer<typeof CreateJobRequest>;

export const MessageRequest = z.object({ prompt });

export const ListJobsQuery = z.object({
  status: z.enum(JOB_STATUSES, { error: `status must be one of ${JOB_STATUSES.join(', ')}` }).optional(),
  ...offsetPaging,
});

export const JobEventResponse = z.looseObject({ id: z.number().int(), type: z.string(), createdAt: z.string() });
export const JobEventsResponse = z.object({ events: z.array(JobEventResponse), status: z.enum(JOB_STATUSES) });

/** The job's pull request as GitHub last reported it (merged or closed without merge, or reopened). */
export const JobPullRequestState = z.object({
  state: z.enum(['open', 'closed']),
  merged: z.boolean(),
  mergedAt: z.string().nullable(),
});

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
  /** Scribe addition: what started the job, when it was started for problems of the queue */
  cause: z
    .object({
      problems: z.array(
        z.object({
          id: z.string(),
          kind: z.string(),
          title: z.string(),
          query: z
            .string()
            .optional()
            .describe("A search gap's query: the job's outcome measures its click-through (`searches.gaps`)"),
        }),
      ),
    })
    .nullable()
    .describe('The problems (`POST /v1/analytics/{projectId}/problems/fix`) the job was started for; null otherwise'),
});
export type JobResponse = z.infer<typeof JobResponse>;

export const JobListResponse = z.object({ jobs: z.array(JobResponse), hasMore: z.boolean() });
