import type { Request, RequestHandler } from 'express';
import type { z } from 'zod';
import type { RouteModule } from '../app.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { jsonBody, UnsupportedMediaType } from '../json-body.js';
import { decodedBody } from '../decoded-body.js';
import { parseBatch } from '../parse-batch.js';
import {
  ExportQuery,
  LogsQuery,
  MAX_BATCH,
  ServerEvent,
  type LogsResponse,
  type ViewsResponse,
  type VisitorsResponse,
} from './analytics-schemas.js';
import type { BatchIngestResponse } from './analytics-batch-schemas.js';
import { batchResult, type Rejection } from '../../analytics/ingest/batch-result.js';
import type { PageView } from '../../analytics/ingest/prepare-event.js';
import type { Analytics } from '../../analytics/analytics.js';
import { parseInput } from '../parse-input.js';
import { analyticsTrackerRoutes } from './analytics-tracker.js';
import { rejectedEvents } from '../../metrics/metrics.js';
import { FUTURE_SLACK_MS, queryRange } from '../../calendar.js';

/** dateFrom inclusive, dateTo exclusive; dateTo defaults to now and dateFrom to 30 days before dateTo. */
export function exportParams(req: Request, now: Date) {
  const query = parseInput(ExportQuery, req.query, 'query parameters');
  const range = queryRange({ dateFrom: query.dateFrom, dateTo: query.dateTo, now: now.getTime() });
  return { range, page: { limit: query.limit, offset: query.offset } };
}

/** Visitor analytics: the compatible exports, server-side and log ingestion, and the browser tracker. */
export const analyticsRoutes =
  ({ analytics }: { analytics: Analytics }): RouteModule =>
  (router, ctx, addHotRoute) => {
    analyticsTrackerRoutes({ analytics })(router, ctx, addHotRoute);
    const auth = requireApiKey(ctx);

    router.get('/v1/analytics/:projectId/visitors', auth, async (req, res) => {
      const { range, page } = exportParams(req, ctx.clock());
      const result = await analytics.visitors(authenticatedProject(res).id, range, page);
      res.json({ totals: result.totals, visitors: result.rows, hasMore: result.hasMore } satisfies z.input<
        typeof VisitorsResponse
      >);
    });

    router.get('/v1/analytics/:projectId/views', auth, async (req, res) => {
      const { range, page } = exportParams(req, ctx.clock());
      const result = await analytics.views(authenticatedProject(res).id, range, page);
      res.json({ totals: result.totals, views: result.rows, hasMore: result.hasMore } satisfies z.input<
        typeof ViewsResponse
      >);
    });

    router.post('/v1/analytics/:projectId/events', auth, ...jsonBody({ limit: '32mb' }), async (req, res) => {
      const batch = parseBatch({ body: req.body, schema: ServerEvent, max: MAX_BATCH, what: 'events' });
      const { views, indexes, invalid } = pageViews({ ...batch, now: ctx.clock().getTime() });
      const project = authenticatedProject(res);
      if (invalid.length) rejectedEvents.inc({ reason: 'invalid event' }, invalid.length);
      const result = await analytics.ingest(project.id, views);
      res.status(202).json(batchResult({ result, indexes, invalid }) satisfies z.input<typeof BatchIngestResponse>);
    });

    router.post('/v1/analytics/:projectId/logs', auth, requireLogContentType, async (req, res) => {
      const { format } = parseInput(LogsQuery, req.query, 'query parameters');
      const summary = await analytics.importLogs({
        projectId: authenticatedProject(res).id,
        input: decodedBody(req),
        format,
      });
      res.status(202).json(summary satisfies z.input<typeof LogsResponse>);
    });
  };

/** Valid server-side events as page views, less those stamped too far ahead, which join the invalid ones. */
function pageViews(params: {
  valid: z.output<typeof ServerEvent>[];
  indexes: number[];
  invalid: Rejection[];
  now: number;
}): { views: PageView[]; indexes: number[]; invalid: Rejection[] } {
  const views: PageView[] = [];
  const indexes: number[] = [];
  const invalid = [...params.invalid];
  params.valid.forEach((e, i) => {
    const index = params.indexes[i];
    const { timestamp } = e;
    if (timestamp > params.now + FUTURE_SLACK_MS) {
      invalid.push({ index, error: 'timestamp: is in the future' });
      return;
    }
    views.push({
      timestamp,
      url: e.path,
      userAgent: e.userAgent,
      ip: e.ip,
      visitorId: e.visitorId,
      referrer: e.referrer,
      headers: e.headers,
      key: e.id === undefined ? undefined : `id:${e.id}`,
    });
    indexes.push(index);
  });
  return { views, indexes, invalid };
}

const requireLogContentType: RequestHandler = (req, _res, next) => {
  if (
    req.is(['text/plain', 'application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines'])
  )
    next();
  else
    next(
      new UnsupportedMediaType(
        'Content-Type must be text/plain (combined log lines) or application/x-ndjson (Cloudflare or Vercel records)',
      ),
    );
};
