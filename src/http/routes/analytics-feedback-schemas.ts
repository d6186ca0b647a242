import { z } from 'zod';
import { DateParam } from './analytics-schemas.js';
import { parseIsoDateTime, EARLIEST_MS } from '../../calendar.js';
import { characterCount, MAX_COMMENT_LENGTH, MAX_QUERY_LENGTH, tooLong } from '../../analytics/signals/normalize.js';
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES, type FeedbackStatus } from '../../analytics/signals/feedback-kinds.js';

/** Request and response shapes of the feedback and search endpoints (compatible with the hosted service's). */

const limitParam = (fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'limit must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, 'limit must be between 1 and 100')
    .default(fallback)
    .describe(`Rows per page, 1–100 (default ${fallback}).`);

const cursorParam = z.string().max(4000).optional().describe('`nextCursor` of the previous page; opaque.');

const statusParam = z
  .string()
  .transform((value, ctx) => {
    const statuses = [...new Set(value.split(',').map((s) => s.trim()))];
    const unknown = statuses.filter((s) => !(FEEDBACK_STATUSES as readonly string[]).includes(s));
    if (unknown.length)
      ctx.addIssue({ code: 'custom', message: `must be a comma-separated list of ${FEEDBACK_STATUSES.join(', ')}` });
    return statuses.sort() as FeedbackStatus[];
  })
  .optional()
  .describe(`Comma-separated statuses (${FEEDBACK_STATUSES.join(', ')}).`);

const range = { dateFrom: DateParam.optional(), dateTo: DateParam.optional() };

/** One page, as the listings show paths (Scribe addition). */
const pathParam = (what: string) => z.string().min(1).max(2048).optional().describe(`Scribe addition: ${what}`);

export const FeedbackQuery = z.object({
  ...range,
  source: z.enum(FEEDBACK_SOURCES).optional(),
  status: statusParam,
  path: pathParam("only this page's feedback (the path exactly as the listing shows it)."),
  limit: limitParam(50),
  cursor: cursorParam,
});
export const FeedbackByPageQuery = FeedbackQuery.extend({ limit: limitParam(10) });
export const SearchesQuery = z.object({
  ...range,
  path: pathParam(
    'only the terms readers clicked a result of to reach this page (their figures unchanged); `totalSearches` counts their searches.',
  ),
  limit: limitParam(50),
  cursor: cursorParam,
});

const FeedbackBase = z.object({
  id: z.string(),
  path: z.string(),
  comment: z.string().nullable(),
  createdAt: z.string().nullable(),
  source: z.enum(FEEDBACK_SOURCES),
  status: z.enum(FEEDBACK_STATUSES),
  helpful: z
    .boolean()
    .nullable()
    .optional()
    .describe('Thumbs up (true) or down (false); absent when the submission had no vote.'),
  contact: z.string().nullable().optional(),
  code: z.string().optional(),
  filename: z.string().nullable().optional(),
  lang: z.string().nullable().optional(),
});
export const FeedbackItem = FeedbackBase;
export const FeedbackResponse = z.object({
  feedback: z.array(FeedbackItem),
  nextCursor: z.string().nullable(),
  hasMore: z.boolean(),
});

export const FeedbackPageRow = z.object({
  path: z.string(),
  thumbsUp: z.number().int(),
  thumbsDown: z.number().int(),
  code: z.number().int(),
  total: z.number().int(),
});
export const FeedbackByPageResponse = z.object({
  feedback: z.array(FeedbackPageRow),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable().describe('Scribe addition: pass as `cursor` for the next page.'),
});

export const SearchRow = z.object({
  searchQuery: z.string(),
  hits: z.number().int(),
  ctr: z.number(),
  topClickedPage: z.string().nullable(),
  lastSearchedAt: z.string(),
});
export const SearchesResponse = z.object({
  searches: z.array(SearchRow),
  totalSearches: z.number().int().min(0),
  nextCursor: z.string().nullable(),
  hasMore: z.boolean().describe('Scribe addition: whether nextCursor leads further.'),
});

export const FeedbackStatusUpdate = z.object({ status: z.enum(FEEDBACK_STATUSES) }).strict();

export const MAX_SIGNAL_BATCH = 1000;

const timestamp = z
  .string()
  .transform((value, ctx) => {
    const ms = parseIsoDateTime(value);
    if (ms === undefined)
      ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date-time with a zone, and a real one' });
    else if (ms < EARLIEST_MS) ctx.addIssue({ code: 'custom', message: 'must not be before 1970-01-01T00:00:00Z' });
    else return ms;
    return z.NEVER;
  })
  .optional()
  .describe('When it happened; default: when received. At most 5 minutes ahead.');

/**
 * Free text as sent, in characters as the README counts them (code points, as JSON Schema's `maxLength` does; zod's
 * `max` counts UTF-16 units, two per emoji). `sent` bounds the text before it is normalised, with room for what
 * normalising removes; the stored `limit` is checked after it, and either refusal says that limit.
 */
const freeText = (params: { sent: number; limit: number }) =>
  z
    .string()
    .refine((text) => characterCount(text) <= params.sent, tooLong(params.limit))
    .meta({ maxLength: params.sent });
const comment = freeText({ sent: MAX_COMMENT_LENGTH * 2, limit: MAX_COMMENT_LENGTH })
  .nullable()
  .optional()
  .describe(`At most ${MAX_COMMENT_LENGTH} characters (Unicode code points) once normalised.`);
const query = freeText({ sent: MAX_QUERY_LENGTH * 5, limit: MAX_QUERY_LENGTH })
  .min(1)
  .describe(`At most ${MAX_QUERY_LENGTH} characters (Unicode code points) once normalised.`);

/** Who a server-side submission came from: an address (hashed, then dropped) or the site's own visitor id. */
const submitter = {
  ip: z.string().max(64).optional(),
  userAgent: z.string().max(2048).optional(),
  visitorId: z.string().min(1).max(200).optional(),
};

export const ServerFeedback = z
  .object({
    id: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Idempotency key: a second submission with the same id is not stored again.'),
    timestamp,
    path: z.string().min(1).max(2048),
    source: z
      .enum(FEEDBACK_SOURCES)
      .optional()
      .describe('Default: `contextual` with a comment, `thumbs_only` without.'),
    helpful: z
      .boolean()
      .nullable()
      .optional()
      .describe('Thumbs up (true) or down (false). Required for a thumbs vote; optional with a comment.'),
    comment,
    contact: z.string().max(320).nullable().optional(),
    code: z.string().max(20_000).optional(),
    filename: z.string().max(500).nullable().optional(),
    lang: z.string().max(50).nullable().optional(),
    ...submitter,
  })
  // `helpful` is checked where the comment is normalised: a thumbs vote (no comment, or `thumbs_only`) needs it
  .refine((f) => f.source !== 'code_snippet' || f.code !== undefined, 'code is required for code_snippet feedback');

export const ServerSearch = z.object({
  id: z.string().min(1).max(200).optional().describe('Idempotency key.'),
  timestamp,
  query,
  clickedPath: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .describe('Set for a click on a result of `query`: the page it led to.'),
  ...submitter,
});

/** What the tracker's widget (or `scribe('feedback', …)`) posts to /api/feedback. */
export const BrowserFeedback = z.object({
  projectId: z.string().min(1).max(100),
  url: z.string().min(1).max(2048),
  helpful: z.boolean(),
  comment,
  /** per widget instance: a comment sent after the vote (same visitor, same page) updates it instead of adding one */
  submission: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/)
    .optional(),
});

/** What `scribe('search', …)` and `scribe('search-click', …)` post to /api/search. */
export const BrowserSearch = z.object({
  projectId: z.string().min(1).max(100),
  url: z.string().min(1).max(2048),
  query,
  clickedPath: z.string().min(1).max(2048).optional(),
});
