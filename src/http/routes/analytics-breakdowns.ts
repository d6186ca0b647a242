import type { z } from 'zod';
import type { RouteModule } from '../app.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { Invalid } from '../../errors.js';
import { DAY_MS } from '../../calendar.js';
import { MAX_DAILY_DAYS } from '../../analytics/reports/daily-visitors.js';
import type { Analytics } from '../../analytics/analytics.js';
import { exportParams } from './analytics.js';
import type { AgentsResponse, DailyVisitorsResponse } from './analytics-breakdowns-schemas.js';

/** Read endpoints the dashboard charts use: unique visitors per day, and AI traffic per agent. Same range rules as the exports. */
export const analyticsBreakdownRoutes =
  ({ analytics }: { analytics: Analytics }): RouteModule =>
  (router, ctx) => {
    const auth = requireApiKey(ctx);
    // Express 5 hands a rejected handler promise to the error handler, so these need no try/catch.
    router.get('/v1/analytics/:projectId/visitors/daily', auth, async (req, res) => {
      const { range } = exportParams(req, ctx.clock());
      if (range.to - range.from > MAX_DAILY_DAYS * DAY_MS) {
        throw new Invalid('Invalid query parameters', [
          { message: `the range may span at most ${MAX_DAILY_DAYS} days` },
        ]);
      }
      const days = await analytics.dailyVisitors(authenticatedProject(res).id, range);
      res.json({ days } satisfies z.input<typeof DailyVisitorsResponse>);
    });
    router.get('/v1/analytics/:projectId/agents', auth, async (req, res) => {
      const { range } = exportParams(req, ctx.clock());
      const { agents, spoofed } = await analytics.aiAgents(authenticatedProject(res).id, range);
      res.json({ agents, spoofed } satisfies z.input<typeof AgentsResponse>);
    });
  };
