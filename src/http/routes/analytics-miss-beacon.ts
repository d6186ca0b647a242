import express from 'express';
import type { RouteModule } from '../app.js';
import type { Analytics } from '../../analytics/analytics.js';
import { bodyLimit } from '../body-limit.js';
import { browserCors, browserHit, parseBrowserSubmission } from '../browser-submission.js';
import { BrowserMiss } from './problems-schemas.js';

const LIMIT = '8kb';

/**
 * What the tracker posts when the site's "not found" page calls `scribe('404')`: kept as a missing page of a person
 * (the problems queue). Like /api/event, a well-formed beacon is answered 202 whether it was kept or dropped.
 */
export const analyticsMissBeaconRoutes =
  ({ analytics }: { analytics: Analytics }): RouteModule =>
  (router, ctx) => {
    const { trustedProxyHeader } = ctx.config.analytics;
    const collector = () => analytics.browserCollector({ db: ctx.db, commit: ctx.config.trackerCommit });
    // sendBeacon sends text/plain (no CORS preflight); JSON is read from either
    router.post(
      '/api/miss',
      browserCors,
      bodyLimit(LIMIT),
      express.text({ type: () => true, limit: LIMIT }),
      async (req, res) => {
        const miss = parseBrowserSubmission(req, BrowserMiss, 'beacon');
        await collector().miss(browserHit({ req, trustedProxyHeader, projectId: miss.projectId, url: miss.url }));
        res.status(202).end();
      },
    );
  };
