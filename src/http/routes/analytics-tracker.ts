import express from 'express';
import type { RouteModule } from '../app.js';
import { Invalid } from '../../errors.js';
import { TrackerEvent } from '../../analytics/schemas.js';
import type { z } from 'zod';

type TrackerEvent = z.output<typeof TrackerEvent>;
import { TRACKER_SCRIPT } from '../../analytics/tracker-script.js';
import { clientIp } from '../../analytics/client-ip.js';
import { urlHostname } from '../../analytics/page-path.js';
import { findProject, type Project } from '../../projects/projects.js';
import { analyticsFor } from './analytics-context.js';
import { zodDetails } from '../parse-input.js';

function allowed(project: Project, url: string | undefined): boolean {
  if (!url) return false;
  const parsed = new URL(url);
  const names = new Set([parsed.hostname.toLowerCase(), parsed.host.toLowerCase()]);
  return project.hostnames.some((h) => names.has(h));
}

/**
 * The browser tracker and its collection endpoint. A well-formed event is always answered 202 — whether it was
 * stored or dropped (unknown project, foreign hostname or origin, bot) is not revealed to the page.
 */
export const analyticsTrackerRoutes: RouteModule = (router, ctx) => {
  router.get('/js/scribe.js', (_req, res) => {
    res.type('application/javascript').set('Cache-Control', 'public, max-age=3600').send(TRACKER_SCRIPT);
  });

  const cors: express.RequestHandler = (_req, res, next) => {
    res.set('Access-Control-Allow-Origin', '*');
    next();
  };
  router.options('/api/event', cors, (_req, res) => {
    res.set({ 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Max-Age': '86400' }).status(204).end();
  });

  // sendBeacon sends text/plain; fetch callers may send JSON. Both are parsed as JSON text.
  const store = async (event: TrackerEvent, req: express.Request) => {
    const project = await findProject(ctx.db, event.projectId);
    const origin = req.get('origin');
    if (!project || project.disabledAt || !allowed(project, event.url)) return;
    if (origin && origin !== 'null' && (!urlHostname(origin) || !allowed(project, origin))) return;
    await analyticsFor(ctx).ingest(project.id, [
      { timestamp: ctx.clock().getTime(), url: event.url, userAgent: req.get('user-agent'), ip: clientIp(req, ctx.config.analytics.trustedProxyHeader), referrer: event.referrer },
    ]);
  };

  router.post('/api/event', cors, express.text({ type: () => true, limit: '8kb' }), async (req, res, next) => {
    try {
      let body: unknown;
      try {
        body = JSON.parse(typeof req.body === 'string' ? req.body : '');
      } catch {
        throw new Invalid('Malformed JSON in request body');
      }
      const result = TrackerEvent.safeParse(body);
      if (!result.success) throw new Invalid('Invalid event', zodDetails(result.error));
      const event = result.data;
      if (!urlHostname(event.url)) throw new Invalid('Invalid event', [{ message: 'url: must be an http(s) URL' }]);
      await store(event, req).catch((err: unknown) => ctx.logger.error({ err }, 'storing a tracker event failed'));
      res.status(202).end();
    } catch (err) {
      next(err);
    }
  });
};
