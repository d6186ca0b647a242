import { z } from 'zod';

/**
 * Request and response shapes of the analytics API, as zod schemas: requests are validated with them and the
 * OpenAPI document is generated from them.
 */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** `YYYY-MM-DD` (midnight UTC) or a full ISO 8601 date-time with a zone → epoch ms. */
export const DateParam = z
  .string()
  .refine((v) => (DATE_ONLY.test(v) || DATE_TIME.test(v)) && parseDate(v) !== undefined, 'must be YYYY-MM-DD or an ISO 8601 date-time')
  .transform((v) => parseDate(v)!);

export function parseDate(value: string): number | undefined {
  if (DATE_ONLY.test(value)) {
    const [y, m, d] = value.split('-').map(Number);
    const ms = Date.UTC(y, m - 1, d);
    // Date.UTC rolls 2026-02-31 over to March: refuse instead
    return new Date(ms).getUTCDate() === d && new Date(ms).getUTCMonth() === m - 1 ? ms : undefined;
  }
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

const wholeNumber = (name: string, min: number, max?: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && (max === undefined || n <= max), max === undefined ? `${name} must be at least ${min}` : `${name} must be between ${min} and ${max}`);

export const ExportQuery = z.object({
  dateFrom: DateParam.optional(),
  dateTo: DateParam.optional(),
  limit: wholeNumber('limit', 1, 250).default(50),
  offset: wholeNumber('offset', 0).default(0),
});

export const TrafficCounts = z.object({ human: z.number().int(), ai: z.number().int(), total: z.number().int() });
export const PathCounts = TrafficCounts.extend({ path: z.string() });

export const VisitorsResponse = z.object({ totals: TrafficCounts, visitors: z.array(PathCounts), hasMore: z.boolean() });
export const ViewsResponse = z.object({ totals: TrafficCounts, views: z.array(PathCounts), hasMore: z.boolean() });

export const MAX_BATCH = 10_000;

/** One server-side page view. */
export const ServerEvent = z
  .object({
    id: z.string().min(1).max(200).optional(),
    timestamp: z.string().refine((v) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time with a zone'),
    path: z.string().min(1).max(2048),
    userAgent: z.string().max(2048),
    ip: z.string().max(64).optional(),
    visitorId: z.string().min(1).max(200).optional(),
    referrer: z.string().max(2048).nullable().optional(),
  })
  .refine((e) => e.ip !== undefined || e.visitorId !== undefined, 'one of ip or visitorId is required');

export const EventsResponse = z.object({
  accepted: z.number().int(),
  /** of the accepted, how many repeated an id already stored (and were not stored again) */
  duplicates: z.number().int(),
  rejected: z.array(z.object({ index: z.number().int(), error: z.string() })),
});

/** What the browser tracker posts. */
export const TrackerEvent = z.object({
  projectId: z.string().min(1).max(100),
  url: z.string().min(1).max(2048),
  referrer: z.string().max(2048).nullable().optional(),
});

export const LOG_FORMATS = ['auto', 'combined', 'cloudflare', 'vercel'] as const;
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
