import type { IncomingMessage } from 'node:http';
import express from 'express';
import type { RouteModule } from '../app.js';
import { Unavailable } from '../../errors.js';
import { TrackerEvent } from './analytics-tracker-schemas.js';
import { TRACKER_SCRIPT } from '../../analytics/ingest/tracker-script.js';
import type { Analytics } from '../../analytics/analytics.js';
import {
  browserCors,
  browserHit,
  browserPreflight,
  parseBrowserText,
  PREFLIGHT_HEADERS,
} from '../browser-submission.js';
import { isPlainTextRequest } from '../plain-text-request.js';
import { readTextBody } from '../read-text-body.js';
import { bodyLimit } from '../body-limit.js';

const EVENT_LIMIT_BYTES = 8192;

/**
 * The browser tracker and its collection endpoint. A well-formed event is always answered 202 — whether it was
 * stored or dropped (unknown project, foreign hostname or origin, bot) is not revealed to the page. The answer comes
 * after the event's group commit: a 202 means stored; a failed commit is a 503.
 *
 * `POST /api/event` is the busiest route by far, so it is also a hot route (see hot-routes.ts): a plain-text event
 * (what sendBeacon and fetch send) is read and answered without Express and its body parser; any other body
 * (compressed, chunked, another charset, too large) takes the router route, which parses it fully.
 */
export const analyticsTrackerRoutes =
  ({ analytics }: { analytics: Analytics }): RouteModule =>
  (router, ctx, addHotRoute) => {
    router.get('/js/scribe.js', (_req, res) => {
      res.type('application/javascript').set('Cache-Control', 'public, max-age=3600').send(TRACKER_SCRIPT);
    });

    // asked for at the first event, not at mounting: the service's one collector, shared with the widget's routes
    const collector = () => analytics.browserCollector({ db: ctx.db, commit: ctx.config.trackerCommit });
    /** stores (or drops) the event in `text`; resolves once it is committed */
    const receive = async (req: IncomingMessage, text: string) => {
      const event = parseBrowserText(text, TrackerEvent, 'event');
      const { trustedProxyHeader } = ctx.config.analytics;
      try {
        await collector().pageView({
          ...browserHit({ req, trustedProxyHeader, projectId: event.projectId, url: event.url }),
          referrer: event.referrer,
        });
      } catch (err) {
        if (err instanceof Unavailable) throw err;
        ctx.logger.error({ err }, 'storing a tracker event failed');
        throw new Unavailable('The event could not be stored; try again');
      }
    };

    router.options('/api/event', browserCors, browserPreflight);
    // sendBeacon sends text/plain; fetch callers may send JSON. Both are parsed as JSON text.
    router.post(
      '/api/event',
      browserCors,
      bodyLimit(EVENT_LIMIT_BYTES),
      express.text({ type: () => true, limit: EVENT_LIMIT_BYTES }),
      async (req, res) => {
        await receive(req, typeof req.body === 'string' ? req.body : '');
        res.status(202).end();
      },
    );

    addHotRoute?.({
      method: 'OPTIONS',
      path: '/api/event',
      handle: (_req, res) => {
        res.setHeader('Access-Control-Allow-Origin', '*');
        for (const [name, value] of Object.entries(PREFLIGHT_HEADERS)) res.setHeader(name, value);
        res.statusCode = 204;
        res.end();
      },
    });
    addHotRoute?.({
      method: 'POST',
      path: '/api/event',
      accepts: (req) => isPlainTextRequest(req.headers, EVENT_LIMIT_BYTES),
      handle: (req, res, fail) => {
        res.setHeader('Access-Control-Allow-Origin', '*');
        readTextBody(req)
          .then((text) => receive(req, text))
          .then(() => {
            res.statusCode = 202;
            res.end();
          }, fail);
      },
    });
  };
