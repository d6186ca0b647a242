import { z } from 'zod';
import { DateParam } from './analytics-schemas.js';
import { wholeNumber } from './paging-schemas.js';
import { JobResponse } from './agent-jobs-schemas.js';
import { MAX_FIX_PROBLEMS, PROBLEM_KINDS, PROBLEM_STATUSES } from '../../problems/problem-kinds.js';

/** Request and response shapes of the problems queue and the page story (routes/problems.ts). */

const count = z.number().int().min(0);
const time = z.string().describe('ISO 8601 UTC, with milliseconds');

/** A comma-separated list of one enum's values, sorted and without repeats. */
const listOf = <T extends readonly [string, ...string[]]>(values: T, name: string) =>
  z
    .string()
    .transform((value, ctx) => {
      const items = [...new Set(value.split(',').map((s) => s.trim()))];
      if (items.some((s) => !(values as readonly string[]).includes(s)))
        ctx.addIssue({ code: 'custom', message: `${name} must be a comma-separated list of ${values.join(', ')}` });
      return items.sort() as T[number][];
    })
    .optional()
    .describe(`Comma-separated: ${values.join(', ')}.`);

const range = {
  dateFrom: DateParam.optional().describe(
    'Inclusive; `YYYY-MM-DD` or an ISO 8601 date-time (default: `dateTo` − 30 days).',
  ),
  dateTo: DateParam.optional().describe('Exclusive (default: now).'),
};

export const ProblemsQuery = z.object({
  ...range,
  kind: listOf(PROBLEM_KINDS, 'kind'),
  status: listOf(PROBLEM_STATUSES, 'status'),
  limit: wholeNumber('limit', 1, 100).default(50).describe('Problems per page, 1–100 (default 50).'),
  cursor: z.string().max(2000).optional().describe('`nextCursor` of the previous page; opaque.'),
});

const ProblemId = z.string().describe('Stable: derived from the kind and the subject (the URL, page or query).');

export const ProblemPath = z.object({
  projectId: z.string().describe('The project id (`scribe project list`).'),
  id: ProblemId,
});

/** A page of the docs repository a missing URL could redirect to. */
export const RedirectCandidate = z.object({
  path: z.string().describe('The page as the site serves it'),
  file: z.string().describe('Its file in the docs repository'),
  title: z.string().nullable(),
  score: z.number().describe('Similarity of path and title to the requested URL, 0–1'),
});

export const MissingPageEvidence = z.object({
  url: z.string().describe('The path as requested, query dropped'),
  requests: count,
  humanReaders: count,
  aiReaders: count,
  statuses: z.array(z.object({ status: z.number().int(), requests: count })),
  agents: z
    .array(
      z.object({
        agent: z.string().describe('The AI agent, or `human`'),
        requests: count,
        verified: count.describe("Requests from the operator's published ranges"),
      }),
    )
    .describe('Who asked, most requests first'),
  verifiedShare: z
    .number()
    .nullable()
    .describe("Share of the AI requests from their operator's published ranges; null without AI requests"),
  candidates: z
    .array(RedirectCandidate)
    .max(3)
    .describe('Up to three pages at the docs ref to redirect to, best first'),
});

export const NegativeFeedbackEvidence = z.object({
  thumbsDown: count,
  thumbsUp: count,
  comments: z
    .array(z.object({ id: z.string(), comment: z.string(), helpful: z.boolean().nullable(), createdAt: time }))
    .describe('The pending comments, newest first, verbatim'),
});

export const SearchGapEvidence = z.object({
  query: z.string().describe('Normalised: trimmed, spaces collapsed, lower case'),
  searches: count,
  clicks: count.describe('Clicks on its results (0: readers clicked nothing it showed)'),
});

export const StalePageEvidence = z.object({
  repository: z.string().describe('The source repository, owner/name'),
  number: z.number().int().describe('The source pull request'),
  mergedAt: time,
  findings: z.array(
    z.object({ line: z.number().int(), identifier: z.string(), change: z.string(), reason: z.string().nullable() }),
  ),
});

export const ProblemResponse = z.object({
  id: ProblemId,
  kind: z.enum(PROBLEM_KINDS),
  status: z.enum(PROBLEM_STATUSES),
  title: z.string(),
  paths: z.array(z.string()).describe('The path(s) concerned'),
  readers: count.describe('Distinct visitors affected in the range, exact'),
  trend: z.object({
    previousReaders: count.describe('The same count over the range of equal length just before'),
    change: z
      .number()
      .nullable()
      .describe('(readers − previousReaders) ÷ previousReaders; null when previousReaders is 0'),
  }),
  firstSeen: time,
  lastSeen: time,
  evidence: z
    .union([MissingPageEvidence, NegativeFeedbackEvidence, SearchGapEvidence, StalePageEvidence])
    .describe('By `kind`: missing-page, negative-feedback, search-gap or stale-page evidence'),
  jobId: z.string().nullable().describe('The agent job working on it, once a fix started'),
  prLink: z.string().nullable().describe("That job's pull request, once opened"),
  dismissal: z.object({ reason: z.string(), at: time }).nullable(),
});
export type ProblemResponse = z.infer<typeof ProblemResponse>;

export const ProblemsResponse = z.object({
  problems: z.array(ProblemResponse),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last.'),
});

export const FixRequest = z
  .object({
    ids: z
      .array(z.string().min(1).max(100))
      .min(1, 'ids must name at least one problem')
      .max(MAX_FIX_PROBLEMS, `ids must name at most ${MAX_FIX_PROBLEMS} problems`),
    instructions: z.string().max(4000).optional().describe('Added to the prompt, after the problems'),
  })
  .strict();

/** The job as GET /v2/agent/{projectId}/job/{id} answers it: `cause` names the problems it was started for. */
export const FixResponse = JobResponse;

export const ProblemUpdate = z.discriminatedUnion('status', [
  z.object({ status: z.literal('dismissed'), reason: z.string().trim().min(1).max(500) }).strict(),
  z.object({ status: z.literal('open') }).strict(),
]);

export const PageQuery = z.object({
  path: z.string().min(1).max(2048).describe('The page, as the site serves it (`/guides/setup`)'),
  ...range,
});

const Traffic = z.object({ human: count, ai: count });

export const PageResponse = z.object({
  path: z.string(),
  range: z.object({ from: time, to: time }),
  previousRange: z.object({ from: time, to: time }),
  days: z
    .array(z.object({ date: z.string(), human: count, ai: count, previous: Traffic }))
    .describe('Distinct visitors per UTC day, beside the same day of the previous range'),
  totals: Traffic.extend({ previous: Traffic }).describe('Distinct visitors over each whole range'),
  agents: z.array(z.object({ agent: z.string(), purpose: z.string(), views: count, visitors: count })),
  referrals: z.array(z.object({ assistant: z.string(), views: count, visitors: count })),
  misses: z
    .array(z.object({ problemId: z.string(), url: z.string(), requests: count, readers: count }))
    .describe('Missing URLs whose redirect candidates include this page'),
  feedback: z.object({
    thumbsUp: count,
    thumbsDown: count,
    comments: z.array(
      z.object({
        id: z.string(),
        comment: z.string(),
        helpful: z.boolean().nullable(),
        status: z.string(),
        createdAt: time,
      }),
    ),
  }),
  searches: z
    .array(z.object({ query: z.string(), clicks: count }))
    .describe('Searches whose result readers clicked here'),
  reviews: z.array(
    z.object({
      repository: z.string(),
      number: z.number().int(),
      headSha: z.string(),
      conclusion: z.string().nullable(),
      findings: count,
      reviewedAt: time,
    }),
  ),
  pullRequests: z
    .array(
      z.object({
        jobId: z.string(),
        prLink: z.string(),
        state: z.enum(['open', 'closed']),
        merged: z.boolean(),
        mergedAt: z.string().nullable(),
        createdAt: time,
      }),
    )
    .describe("Scribe's docs pull requests that changed the page"),
});

/** What the tracker posts when the site's "not found" page calls `scribe('404')`. */
export const BrowserMiss = z.object({
  projectId: z.string().min(1).max(100),
  url: z.string().min(1).max(2048).describe('The URL the reader asked for and was answered "not found"'),
});
