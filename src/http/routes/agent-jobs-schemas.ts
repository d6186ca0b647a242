import { z } from 'zod';
import { JOB_STATUSES } from '../../jobs/job-status.js';
import { MAX_PROMPT_LENGTH } from '../../jobs/job-requests.js';

export { JobResponse, JobListResponse } from '../../jobs/job-view.js';

// git check-ref-format, simplified (the same rule projects use for their ref).
const REF = /^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*@\{)[^\s~^:?*[\\\x00-\x1f\x7f]+(?<![./])$/;

const prompt = z
  .string({ error: 'prompt must be a string' })
  .min(1, 'prompt must not be empty')
  .max(MAX_PROMPT_LENGTH, `prompt must be at most ${MAX_PROMPT_LENGTH} characters`)
  .refine((p) => p.trim().length > 0, 'prompt must not be blank');

export const CreateJobRequest = z.object({
  prompt,
  ref: z.string({ error: 'ref must be a string' }).max(255).regex(REF, 'ref must be a valid branch name').optional(),
  model: z.string({ error: 'model must be a string' }).optional(),
  draft: z.boolean({ error: 'draft must be true or false' }).optional().describe('Open the pull request as a draft (default false).'),
  asDraft: z.boolean({ error: 'asDraft must be true or false' }).optional().describe('The compatible service\'s name for `draft`; if both are sent they must agree.'),
}).refine((r) => r.draft === undefined || r.asDraft === undefined || r.draft === r.asDraft, 'draft and asDraft must agree when both are sent');
export type CreateJobRequest = z.infer<typeof CreateJobRequest>;

export const MessageRequest = z.object({ prompt });

export const ListJobsQuery = z.object({
  status: z.enum(JOB_STATUSES, { error: `status must be one of ${JOB_STATUSES.join(', ')}` }).optional(),
  limit: z.coerce.number({ error: 'limit must be a whole number' }).int('limit must be a whole number').min(1, 'limit must be 1..100').max(100, 'limit must be 1..100').default(20),
  offset: z.coerce.number({ error: 'offset must be a whole number' }).int('offset must be a whole number').min(0, 'offset must not be negative').default(0),
});

export const JobEventResponse = z.looseObject({ id: z.number().int(), type: z.string(), createdAt: z.string() });
export const JobEventsResponse = z.object({ events: z.array(JobEventResponse), status: z.enum(JOB_STATUSES) });
