import type { Request, RequestHandler } from 'express';
import type { z } from 'zod';
import type { RouteModule } from '../app.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { jsonBody, UnsupportedMediaType } from '../json-body.js';
import { decodedBody } from '../decoded-body.js';
import { Invalid } from '../../errors.js';
import { ExportQuery, LogsQuery, MAX_BATCH, ServerEvent, type EventsResponse, type LogsResponse, type ViewsResponse, type VisitorsResponse } from '../../analytics/schemas.js';
import { importLogs } from '../../analytics/import-logs.js';
import type { PageView } from '../../analytics/prepare-event.js';
import type { Analytics } from '../../analytics/analytics.js';
import { parseInput, zodDetails } from '../parse-input.js';
import { analyticsTrackerRoutes } from './analytics-tracker.js';
import type { TimeRange } from '../../analytics/count-range.js';
import { rejectedEvents } from '../../metrics/metrics.js';

const DEFAULT_RANGE_MS = 30 * 86_400_000;
/** events stamped further ahead than this are refused (clock skew allowance) */
const FUTURE_SLACK_MS = 5 * 60_000;

/** dateFrom inclusive, dateTo exclusive; dateTo defaults to now and dateFrom to 30 days before dateTo. */
export function exportParams(req: Request, now: Date) {
  const query = parseInput(ExportQuery, req.query, 'query parameters');
  const to = query.dateTo ?? now.getTime();
  const from = query.dateFrom ?? to - DEFAULT_RANGE_MS;
  if (from >= to) throw new Invalid('Invalid query parameters', [{ message: 'dateFrom must be before dateTo' }]);
  return { range: { from, to } satisfies TimeRange, page: { limit: query.limit, offset: query.offset } };
}

/** Visitor analytics: the compatible exports, server-side and log ingestion, and the browser tracker. */
export const analyticsRoutes = ({ analytics }: { analytics: Analytics }): RouteModule => (router, ctx, addHotRoute) => {
  analyticsTrackerRoutes({ analytics })(router, ctx, addHotRoute);
  const auth = requireApiKey(ctx);

  router.get(
    '/v1/analytics/:projectId/visitors',
    auth,
    async (req, res) => {
      const { range, page } = exportParams(req, ctx.clock());
      const result = await analytics.visitors(authenticatedProject(res).id, range, page);
      res.json({ totals: result.totals, visitors: result.rows, hasMore: result.hasMore } satisfies z.input<typeof VisitorsResponse>);
    },
  );

  router.get(
    '/v1/analytics/:projectId/views',
    auth,
    async (req, res) => {
      const { range, page } = exportParams(req, ctx.clock());
      const result = await analytics.views(authenticatedProject(res).id, range, page);
      res.json({ totals: result.totals, views: result.rows, hasMore: result.hasMore } satisfies z.input<typeof ViewsResponse>);
    },
  );

  router.post(
    '/v1/analytics/:projectId/events',
    auth,
    ...jsonBody({ limit: '32mb' }),
    async (req, res) => {
      const body: unknown = req.body;
      if (!Array.isArray(body)) throw new Invalid('Body must be a JSON array of events', [{ message: 'expected an array' }]);
      if (body.length > MAX_BATCH) throw new Invalid(`At most ${MAX_BATCH.toLocaleString('en')} events per request`, [{ message: `got ${body.length}` }]);
      const now = ctx.clock().getTime();
      const views: PageView[] = [];
      const indexes: number[] = [];
      const rejected: { index: number; error: string }[] = [];
      body.forEach((item, index) => {
        const result = ServerEvent.safeParse(item);
        if (!result.success) {
          rejected.push({ index, error: zodDetails(result.error).map((d) => d.message).join('; ') });
          return;
        }
        const e = result.data;
        const timestamp = Date.parse(e.timestamp);
        if (timestamp > now + FUTURE_SLACK_MS) {
          rejected.push({ index, error: 'timestamp: is in the future' });
          return;
        }
        views.push({ timestamp, url: e.path, userAgent: e.userAgent, ip: e.ip, visitorId: e.visitorId, referrer: e.referrer, key: e.id === undefined ? undefined : `id:${e.id}` });
        indexes.push(index);
      });
      const project = authenticatedProject(res);
      if (rejected.length) rejectedEvents.inc({ reason: 'invalid event' }, rejected.length);
      const result = await analytics.ingest(project.id, views, indexes);
      rejected.push(...result.rejected);
      rejected.sort((a, b) => a.index - b.index);
      res.status(202).json({ accepted: result.accepted, duplicates: result.duplicates, rejected } satisfies z.input<typeof EventsResponse>);
    },
  );

  router.post(
    '/v1/analytics/:projectId/logs',
    auth,
    requireLogContentType,
    async (req, res) => {
      const { format } = parseInput(LogsQuery, req.query, 'query parameters');
      const project = authenticatedProject(res);
      const summary = await importLogs({
        input: decodedBody(req),
        format,
        ingest: (views) => analytics.ingest(project.id, views),
        lineKey: (line) => analytics.logLineKey(project.id, line),
        recordMisses: async (misses) => void (await analytics.recordAiMisses(project.id, misses)),
      });
      res.status(202).json(summary satisfies z.input<typeof LogsResponse>);
    },
  );
};

const requireLogContentType: RequestHandler = (req, _res, next) => {
  if (req.is(['text/plain', 'application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines'])) next();
  else next(new UnsupportedMediaType('Content-Type must be text/plain (combined log lines) or application/x-ndjson (Cloudflare or Vercel records)'));
};
