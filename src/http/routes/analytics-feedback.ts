import express from 'express';
import type { z } from 'zod';
import type { RouteModule } from '../app.js';
import type { AppContext } from '../context.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { jsonBody } from '../json-body.js';
import { bodyLimit } from '../body-limit.js';
import { parseInput } from '../parse-input.js';
import { parseBatch } from '../parse-batch.js';
import { browserCors, browserHit, browserPreflight, parseBrowserSubmission } from '../browser-submission.js';
import type { FeedbackEntry } from '../../analytics/signals/store/feedback-entries.js';
import type { SearchReport } from '../../analytics/signals/list-searches.js';
import type { CursorPage } from '../../analytics/signals/cursor-paging.js';
import type { PageFeedbackCounts } from '../../analytics/signals/store/feedback-counts-by-page.js';
import {
  BrowserFeedback,
  BrowserSearch,
  type FeedbackByPageResponse,
  FeedbackByPageQuery,
  type FeedbackItem,
  FeedbackQuery,
  type FeedbackResponse,
  FeedbackStatusUpdate,
  MAX_SIGNAL_BATCH,
  SearchesQuery,
  type SearchesResponse,
  ServerFeedback,
  ServerSearch,
} from './analytics-feedback-schemas.js';
import type { Analytics } from '../../analytics/analytics.js';
import { batchResult } from '../../analytics/ingest/batch-result.js';
import type { BrowserCollector } from '../../analytics/ingest/collect-browser.js';
import type { BatchIngestResponse } from './analytics-batch-schemas.js';

/**
 * Page feedback and site searches: the compatible listings (read key), server-side submission (write key), and the
 * browser endpoints the tracker's widget and search API post to.
 */
export const analyticsFeedbackRoutes =
  ({ analytics }: { analytics: Analytics }): RouteModule =>
  (router, ctx) => {
    const signals = analytics.readerSignals();
    const auth = requireApiKey(ctx);

    router.get('/v1/analytics/:projectId/feedback', auth, async (req, res) => {
      const query = parseInput(FeedbackQuery, req.query, 'query parameters');
      res.json(feedbackBody(await signals.feedback(authenticatedProject(res).id, query)));
    });
    router.get('/v1/analytics/:projectId/feedback/by-page', auth, async (req, res) => {
      const query = parseInput(FeedbackByPageQuery, req.query, 'query parameters');
      res.json(byPageBody(await signals.feedbackByPage(authenticatedProject(res).id, query)));
    });
    router.get('/v1/analytics/:projectId/searches', auth, async (req, res) => {
      const query = parseInput(SearchesQuery, req.query, 'query parameters');
      res.json(searchesBody(await signals.searches(authenticatedProject(res).id, query)));
    });

    router.post('/v1/analytics/:projectId/feedback', auth, ...jsonBody({ limit: '4mb' }), async (req, res) => {
      const { valid, indexes, invalid } = parseBatch({ body: req.body, schema: ServerFeedback, max: MAX_SIGNAL_BATCH });
      const items = valid.map(({ id, ...f }) => ({ ...f, key: id === undefined ? undefined : `id:${id}` }));
      const result = await signals.submitFeedback(authenticatedProject(res).id, items);
      res.status(202).json(batchResult({ result, indexes, invalid }) satisfies z.input<typeof BatchIngestResponse>);
    });
    router.patch('/v1/analytics/:projectId/feedback/:feedbackId', auth, ...jsonBody(), async (req, res) => {
      const { status } = parseInput(FeedbackStatusUpdate, req.body, 'request body');
      const entry = await signals.setFeedbackStatus(
        authenticatedProject(res).id,
        String(req.params.feedbackId),
        status,
      );
      res.json(feedbackItem(entry));
    });
    router.post('/v1/analytics/:projectId/searches', auth, ...jsonBody({ limit: '4mb' }), async (req, res) => {
      const { valid, indexes, invalid } = parseBatch({ body: req.body, schema: ServerSearch, max: MAX_SIGNAL_BATCH });
      const items = valid.map(({ id, ...s }) => ({ ...s, key: id === undefined ? undefined : `id:${id}` }));
      const result = await signals.submitSearches(authenticatedProject(res).id, items);
      res.status(202).json(batchResult({ result, indexes, invalid }) satisfies z.input<typeof BatchIngestResponse>);
    });

    browserRoutes(router, ctx, () => analytics.browserCollector({ db: ctx.db, commit: ctx.config.trackerCommit }));
  };

/** An entry as the listings show it: ids as strings, ISO times, the code fields only on code snippet feedback. */
function feedbackItem(f: FeedbackEntry): z.input<typeof FeedbackItem> {
  return {
    id: String(f.id),
    path: f.path,
    comment: f.comment,
    createdAt: new Date(f.ts).toISOString(),
    source: f.source,
    status: f.status,
    helpful: f.helpful,
    contact: f.contact,
    ...(f.source === 'code_snippet' ? { code: f.code ?? '', filename: f.filename, lang: f.lang } : {}),
  };
}

function feedbackBody(page: CursorPage<FeedbackEntry>): z.input<typeof FeedbackResponse> {
  return { feedback: page.rows.map(feedbackItem), nextCursor: page.nextCursor, hasMore: page.hasMore };
}

function byPageBody(page: CursorPage<PageFeedbackCounts>): z.input<typeof FeedbackByPageResponse> {
  return { feedback: page.rows, hasMore: page.hasMore, nextCursor: page.nextCursor };
}

function searchesBody(report: SearchReport): z.input<typeof SearchesResponse> {
  return {
    searches: report.rows.map((t) => ({
      searchQuery: t.query,
      hits: t.hits,
      ctr: t.ctr,
      topClickedPage: t.topClickedPage,
      lastSearchedAt: new Date(t.lastSearchedAt).toISOString(),
    })),
    totalSearches: report.totalSearches,
    nextCursor: report.nextCursor,
    hasMore: report.hasMore,
  };
}

/**
 * What the tracker posts. Like /api/event, a well-formed submission is answered 202 whether it was stored or
 * dropped (unknown project, foreign site, a bot, over the visitor's limit), so a page learns nothing from it.
 */
function browserRoutes(router: express.Router, ctx: AppContext, collector: () => BrowserCollector) {
  // sendBeacon and the widget send text/plain (no CORS preflight); JSON is read from either
  const limit = '16kb';
  const text = [bodyLimit(limit), express.text({ type: () => true, limit })];
  const { trustedProxyHeader } = ctx.config.analytics;

  router.options('/api/feedback', browserCors, browserPreflight);
  router.options('/api/search', browserCors, browserPreflight);
  router.post('/api/feedback', browserCors, ...text, async (req, res) => {
    const f = parseBrowserSubmission(req, BrowserFeedback, 'submission');
    await collector().feedback(browserHit({ req, trustedProxyHeader, projectId: f.projectId, url: f.url }), f);
    res.status(202).end();
  });
  router.post('/api/search', browserCors, ...text, async (req, res) => {
    const s = parseBrowserSubmission(req, BrowserSearch, 'submission');
    await collector().search(browserHit({ req, trustedProxyHeader, projectId: s.projectId, url: s.url }), s);
    res.status(202).end();
  });
}
