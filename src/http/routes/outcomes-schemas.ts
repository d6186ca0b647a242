import { z } from 'zod';
import { DateParam } from './analytics-schemas.js';
import { wholeNumber } from './paging-schemas.js';
import { JobResponse } from './agent-jobs-schemas.js';

/** Request and response shapes of docs pull request outcomes (routes/outcomes.ts, and `outcome` on a job). */

const count = z.number().int().min(0);
const time = z.string().describe('ISO 8601 UTC, with milliseconds');
const VERDICTS = ['helped', 'no effect', 'regressed', 'too little traffic to tell', 'pending'] as const;
const CHANGE = z.enum(['improved', 'worse', 'no change', 'too little data']);
const Pair = z.object({ before: count, after: count });
const Compared = Pair.extend({
  ratio: z.number().nullable().describe('after ÷ before; null when either window has fewer readers than the minimum'),
});

const Measured = z.object({
  humanVisitors: Compared.describe('Distinct human visitors, exact'),
  aiVisitors: Compared.describe('Distinct AI visitors, exact'),
  aiVisitorsByPurpose: z
    .object({
      searchIndex: Compared.describe('agents that index for AI search (kind `search` in the agent list)'),
      training: Compared.describe('crawlers that collect training data (kind `crawler`)'),
      assistant: Compared.describe("assistants fetching a page for a user's question (kind `assistant`)"),
      agent: Compared.describe('agents acting for a user (kind `agent`)'),
      other: Compared.describe('AI agents the list does not name a purpose for'),
    })
    .describe(
      'Distinct AI visitors by what their agent reads for, as the AI purposes report puts them; a visitor whose agents read for two purposes counts in each',
    ),
  assistantReferrals: Compared.describe(
    "Distinct human visitors an AI assistant's answer sent (ChatGPT, Perplexity, …)",
  ),
  thumbsUp: Pair,
  thumbsDown: Pair,
  comments: Pair.describe('New feedback comments (with a vote or without)'),
  helpfulShare: z.object({ before: z.number().nullable(), after: z.number().nullable() }),
  misses: Pair.describe(
    '404/410 requests of the URLs the pull request created pages for, moved or deleted pages from, or redirected',
  ),
  changes: z.object({ traffic: CHANGE, misses: CHANGE, helpful: CHANGE }),
  verdict: z.enum(VERDICTS),
});

const SearchSide = z.object({
  searches: count,
  clicks: count,
  clickThrough: z.number().nullable().describe('clicks ÷ searches; null without searches'),
});

const ChangedPage = z.object({
  path: z.string().describe('The page as the site serves it'),
  change: z.enum(['added', 'edited', 'moved', 'deleted', 'redirected']),
  from: z
    .string()
    .optional()
    .describe(
      "`moved`: where the page was served before (its readers there count as the page's before); `redirected`: the URL a redirect the pull request added sends to this page",
    ),
});

export const OutcomeResponse = z.object({
  mergedAt: time,
  liveAt: time.describe('mergedAt + SCRIBE_DOCS_DEPLOY_DELAY'),
  verdict: z.enum(VERDICTS).describe('The verdict of the longest complete window; `pending` while none is'),
  windows: z.array(
    z.object({
      days: z.number().int(),
      status: z.enum(['pending', 'partial', 'complete']),
      daysSoFar: count,
      before: z.object({ from: time, to: time }),
      after: z.object({ from: time, to: time }),
      total: Measured,
      pages: z.array(
        Measured.extend({ path: z.string(), change: ChangedPage.shape.change, from: ChangedPage.shape.from }),
      ),
      misses: z.array(z.object({ url: z.string(), before: count, after: count })),
      searches: z
        .object({
          queries: z
            .array(z.string())
            .describe(
              'The queries of the search gaps the pull request was started to fix, then those that led readers into the pages on either side (at most 20 of these)',
            ),
          before: SearchSide,
          after: SearchSide,
          gaps: z
            .array(
              z.object({
                problem: z.string().describe('The search-gap problem the job was started from'),
                query: z.string(),
                before: SearchSide,
                after: SearchSide,
                change: CHANGE.describe(
                  "The query's click-through into the pages: read with at least 10 searches on each side, moved by at least 0.1; what moves the problem to verified or regressed",
                ),
              }),
            )
            .describe('Each search gap the job was started to fix (from the problems queue): its own query on its own'),
        })
        .describe('Site searches of those queries, and how many clicked into one of the pages'),
      laterChanges: z
        .array(
          z.object({
            jobId: z.string(),
            repository: z.string(),
            number: z.number().int(),
            mergedAt: time,
            paths: z.array(z.string()).describe('The pages of this pull request it changed too'),
          }),
        )
        .describe(
          'Later merged Scribe docs pull requests that changed some of the same pages before this window ended',
        ),
    }),
  ),
  deleted: z
    .array(z.object({ path: z.string() }))
    .describe('Pages the pull request deleted: no after to measure; their old address is in `misses`'),
});

export const JobWithOutcomeResponse = JobResponse.extend({
  outcome: OutcomeResponse.nullable().describe('Null until the pull request merges (Scribe addition)'),
});

export const OutcomesQuery = z.object({
  dateFrom: DateParam.optional().describe(
    'Merged at or after; `YYYY-MM-DD` or an ISO 8601 date-time (default: `dateTo` − 30 days).',
  ),
  dateTo: DateParam.optional().describe('Merged before (default: now).'),
  limit: wholeNumber('limit', 1, 100).default(20).describe('Pull requests per page, 1–100 (default 20).'),
  cursor: z.string().max(2000).optional().describe('`nextCursor` of the previous page; opaque.'),
});

export const OutcomesResponse = z.object({
  outcomes: z.array(
    z.object({
      jobId: z.string(),
      repository: z.string(),
      number: z.number().int(),
      pages: z.array(ChangedPage),
      outcome: OutcomeResponse,
    }),
  ),
  summary: z
    .object({ helped: count, noEffect: count, regressed: count })
    .describe('Verdicts of every merge in the range, not only this page'),
  nextCursor: z.string().nullable(),
});
