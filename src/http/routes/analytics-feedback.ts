import express from 'express';
import type { z } from 'zod';
import type { RouteModule } from '../app.js';
import type { AppContext } from '../context.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { jsonBody } from '../json-body.js';
import { parseInput, zodDetails } from '../parse-input.js';
import { browserCors, browserPreflight, parseBrowserSubmission } from '../browser-submission.js';
import { Invalid } from '../../errors.js';
import type { ReaderSignals, SubmitResult } from '../../analytics/feedback/reader-signals.js';
import {
  BrowserFeedback,
  BrowserSearch,
  FeedbackByPageQuery,
  FeedbackQuery,
  FeedbackStatusUpdate,
  MAX_SIGNAL_BATCH,
  SearchesQuery,
  ServerFeedback,
  ServerSearch,
  type SignalsIngestResponse,
} from '../../analytics/feedback/signal-schemas.js';
import { findProject } from '../../projects/projects.js';
import { fromProjectSite } from '../../analytics/site-origin.js';
import { clientIp } from '../../analytics/client-ip.js';
import { classifyUserAgent } from '../../analytics/classify-user-agent.js';
import type { Analytics } from '../../analytics/analytics.js';

/**
 * Page feedback and site searches: the compatible listings (read key), server-side submission (write key), and the
 * browser endpoints the tracker's widget and search API post to.
 */
export const analyticsFeedbackRoutes = ({ analytics }: { analytics: Analytics }): RouteModule => (router, ctx) => {
  const signals = analytics.readerSignals();
  const auth = requireApiKey(ctx);

  router.get('/v1/analytics/:projectId/feedback', auth, async (req, res) => {
    const query = parseInput(FeedbackQuery, req.query, 'query parameters');
    res.json(await signals.feedback(authenticatedProject(res).id, query));
  });
  router.get('/v1/analytics/:projectId/feedback/by-page', auth, async (req, res) => {
    const query = parseInput(FeedbackByPageQuery, req.query, 'query parameters');
    res.json(await signals.feedbackByPage(authenticatedProject(res).id, query));
  });
  router.get('/v1/analytics/:projectId/searches', auth, async (req, res) => {
    const query = parseInput(SearchesQuery, req.query, 'query parameters');
    res.json(await signals.searches(authenticatedProject(res).id, query));
  });

  router.post('/v1/analytics/:projectId/feedback', auth, ...jsonBody({ limit: '4mb' }), async (req, res) => {
    const { valid, indexes, rejected } = validateBatch(req.body, ServerFeedback);
    const items = valid.map(({ id, ...f }) => ({ ...f, key: id === undefined ? undefined : `id:${id}` }));
    const result = await signals.submitFeedback(authenticatedProject(res).id, items);
    res.status(202).json(merge(result, indexes, rejected));
  });
  router.patch('/v1/analytics/:projectId/feedback/:feedbackId', auth, ...jsonBody(), async (req, res) => {
    const { status } = parseInput(FeedbackStatusUpdate, req.body, 'request body');
    res.json(await signals.setFeedbackStatus(authenticatedProject(res).id, String(req.params.feedbackId), status));
  });
  router.post('/v1/analytics/:projectId/searches', auth, ...jsonBody({ limit: '4mb' }), async (req, res) => {
    const { valid, indexes, rejected } = validateBatch(req.body, ServerSearch);
    const items = valid.map(({ id, ...s }) => ({ ...s, key: id === undefined ? undefined : `id:${id}` }));
    const result = await signals.submitSearches(authenticatedProject(res).id, items);
    res.status(202).json(merge(result, indexes, rejected));
  });

  browserRoutes(router, ctx, signals);
};

/** Each item validated on its own, as the events batch does: bad ones are rejected by index. */
function validateBatch<S extends z.ZodType>(body: unknown, schema: S) {
  if (!Array.isArray(body)) throw new Invalid('Body must be a JSON array', [{ message: 'expected an array' }]);
  if (body.length > MAX_SIGNAL_BATCH) throw new Invalid(`At most ${MAX_SIGNAL_BATCH.toLocaleString('en')} items per request`, [{ message: `got ${body.length}` }]);
  const valid: z.output<S>[] = [];
  const indexes: number[] = [];
  const rejected: { index: number; error: string }[] = [];
  body.forEach((item, index) => {
    const result = schema.safeParse(item);
    if (result.success) {
      valid.push(result.data);
      indexes.push(index);
    } else rejected.push({ index, error: zodDetails(result.error).map((d) => d.message).join('; ') });
  });
  return { valid, indexes, rejected };
}

/** The store's result is indexed by valid item; maps it back to the request's indexes and adds the invalid ones. */
function merge(result: SubmitResult, indexes: number[], invalid: { index: number; error: string }[]): z.input<typeof SignalsIngestResponse> {
  const rejected = [...invalid, ...result.rejected.map((r) => ({ index: indexes[r.index], error: r.error }))].sort((a, b) => a.index - b.index);
  return { accepted: result.accepted, duplicates: result.duplicates, rejected };
}

/**
 * What the tracker posts. Like /api/event, a well-formed submission is answered 202 whether it was stored or
 * dropped (unknown project, foreign site, a bot, over the visitor's limit), so a page learns nothing from it.
 */
function browserRoutes(router: express.Router, ctx: AppContext, signals: ReaderSignals) {
  // sendBeacon and the widget send text/plain (no CORS preflight); JSON is read from either
  const text = express.text({ type: () => true, limit: '16kb' });
  /** the submitter when the submission is from the project's site and a person; undefined to drop it */
  const submitter = async (req: express.Request, projectId: string, url: string) => {
    const project = await findProject(ctx.db, projectId);
    if (!project || project.disabledAt || !fromProjectSite(project.hostnames, url, req.get('origin'))) return undefined;
    const userAgent = req.get('user-agent');
    if (classifyUserAgent(userAgent).class !== 'human') return undefined;
    const ip = clientIp(req, ctx.config.analytics.trustedProxyHeader);
    return ip ? { projectId: project.id, ip, userAgent } : undefined;
  };
  const dropped = (err: unknown) => ctx.logger.error({ err }, 'storing a tracker submission failed');

  router.options('/api/feedback', browserCors, browserPreflight);
  router.options('/api/search', browserCors, browserPreflight);
  router.post('/api/feedback', browserCors, text, async (req, res) => {
    const f = parseBrowserSubmission(req, BrowserFeedback, 'submission');
    const who = await submitter(req, f.projectId, f.url);
    if (who) {
      const { projectId, ...person } = who;
      await signals
        .submitFeedback(projectId, [{ ...person, path: f.url, helpful: f.helpful, comment: f.comment, submission: f.submission }], 'update')
        .catch(dropped);
    }
    res.status(202).end();
  });
  router.post('/api/search', browserCors, text, async (req, res) => {
    const s = parseBrowserSubmission(req, BrowserSearch, 'submission');
    const who = await submitter(req, s.projectId, s.url);
    if (who) {
      const { projectId, ...person } = who;
      await signals.submitSearches(projectId, [{ ...person, query: s.query, clickedPath: s.clickedPath && pathOnSite(s.clickedPath, s.url) }]).catch(dropped);
    }
    res.status(202).end();
  });
}

/** A clicked result as a path: relative links resolve against the page; links to other sites are kept as their URL's path. */
function pathOnSite(clicked: string, pageUrl: string): string {
  try {
    return new URL(clicked, pageUrl).pathname;
  } catch {
    return clicked;
  }
}
