import express from 'express';
import type { RouteModule } from '../app.js';
import { Unavailable } from '../../errors.js';
import { TrackerEvent } from '../../analytics/schemas.js';
import { TRACKER_SCRIPT } from '../../analytics/tracker-script.js';
import { clientIp } from '../../analytics/client-ip.js';
import type { Analytics } from '../../analytics/analytics.js';
import { trackerStore } from './tracker-store.js';
import { browserCors, browserPreflight, parseBrowserSubmission } from '../browser-submission.js';

/**
 * The browser tracker and its collection endpoint. A well-formed event is always answered 202 — whether it was
 * stored or dropped (unknown project, foreign hostname or origin, bot) is not revealed to the page. The answer comes
 * after the event's group commit: a 202 means stored; a failed commit is a 503.
 */
export const analyticsTrackerRoutes = ({ analytics }: { analytics: Analytics }): RouteModule => (router, ctx) => {
  router.get('/js/scribe.js', (_req, res) => {
    res.type('application/javascript').set('Cache-Control', 'public, max-age=3600').send(TRACKER_SCRIPT);
  });

  router.options('/api/event', browserCors, browserPreflight);

  const store = trackerStore(ctx, analytics);

  // sendBeacon sends text/plain; fetch callers may send JSON. Both are parsed as JSON text.
  router.post('/api/event', browserCors, express.text({ type: () => true, limit: '8kb' }), async (req, res, next) => {
    try {
      const event = parseBrowserSubmission(req, TrackerEvent, 'event');
      try {
        await store({ projectId: event.projectId, url: event.url, origin: req.get('origin'), userAgent: req.get('user-agent'), ip: clientIp(req, ctx.config.analytics.trustedProxyHeader), referrer: event.referrer });
      } catch (err) {
        ctx.logger.error({ err }, 'storing a tracker event failed');
        throw new Unavailable('The event could not be stored; try again');
      }
      res.status(202).end();
    } catch (err) {
      next(err);
    }
  });
};
