import { z } from 'zod';
import { EARLIEST_MS, LATEST_QUERY_MS, parseIsoDate, parseIsoDateTime } from '../../calendar.js';
import { LOG_FORMATS } from '../../analytics/ingest/log-formats.js';
import { wholeNumber } from './paging-schemas.js';

/**
 * A date query parameter: `YYYY-MM-DD` (midnight UTC) or a full ISO 8601 date-time with a zone → epoch ms; impossible
 * dates refused. Shared by every analytics listing (exports, AI reports, feedback and searches).
 */
export const DateParam = z.string().transform((value, ctx) => {
  const ms = parseIsoDate(value) ?? parseIsoDateTime(value);
  if (ms === undefined)
    ctx.addIssue({
      code: 'custom',
      message: 'must be YYYY-MM-DD or an ISO 8601 date-time with a zone, and a real date',
    });
  else if (ms < EARLIEST_MS || ms >= LATEST_QUERY_MS)
    ctx.addIssue({ code: 'custom', message: 'must be between 1970-01-01 and 9999-12-31' });
  else return ms;
  return z.NEVER;
});

/**
 * Request and response shapes of the analytics routes (routes/analytics.ts: the exports, server-side events and log
 * import), as zod schemas: requests are validated with them and the OpenAPI document is generated from them.
 */

export const ExportQuery = z.object({
  dateFrom: DateParam.optional(),
  dateTo: DateParam.optional(),
  limit: wholeNumber('limit', 1, 250).default(50),
  offset: wholeNumber('offset', 0).default(0),
});

export const TrafficCounts = z.object({ human: z.number().int(), ai: z.number().int(), total: z.number().int() });
export const PathCounts = TrafficCounts.extend({ path: z.string() });

export const VisitorsResponse = z.object({
  totals: TrafficCounts,
  visitors: z.array(PathCounts),
  hasMore: z.boolean(),
});
export const ViewsResponse = z.object({ totals: TrafficCounts, views: z.array(PathCounts), hasMore: z.boolean() });

export const MAX_BATCH = 10_000;

/** One server-side page view. */
export const ServerEvent = z
  .object({
    id: z.string().min(1).max(200).optional(),
    // handed on as the instant checked here (epoch ms), not parsed again
    timestamp: z.string().transform((value, ctx) => {
      const ms = parseIsoDateTime(value);
      if (ms === undefined)
        ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date-time with a zone, and a real one' });
      else if (ms < EARLIEST_MS) ctx.addIssue({ code: 'custom', message: 'must not be before 1970-01-01T00:00:00Z' });
      else return ms;
      return z.NEVER;
    }),
    path: z.string().min(1).max(2048),
    userAgent: z.string().max(2048),
    ip: z.string().max(64).optional(),
    visitorId: z.string().min(1).max(200).optional(),
    referrer: z.string().max(2048).nullable().optional(),
    /** the request's Web Bot Auth headers (names in lower case), to verify a signed agent; host: its @authority */
    headers: z
      .object({
        signature: z.string().max(8192).optional(),
        'signature-input': z.string().max(8192).optional(),
        'signature-agent': z.string().max(2048).optional(),
        host: z.string().max(255).optional(),
      })
      .optional(),
  })
  .refine((e) => e.ip !== undefined || e.visitorId !== undefined, 'one of ip or visitorId is required');

export const LogsQuery = z.object({ format: z.enum(LOG_FORMATS).default('auto') });

export const LogsResponse = z.object({
  format: z.enum(LOG_FORMATS),
  lines: z.number().int(),
  accepted: z.number().int(),
  duplicates: z.number().int(),
  /** reason → number of lines */
  skipped: z.record(z.string(), z.number().int()),
  /** the first malformed lines, with their numbers */
  errors: z.array(z.object({ line: z.number().int(), error: z.string() })),
});
