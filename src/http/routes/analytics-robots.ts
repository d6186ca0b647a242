import { z } from 'zod';
import type { Analytics } from '../../analytics/analytics.js';
import type { OperationDoc } from '../openapi/operation-doc.js';
import type { RouteModule } from '../app.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { exportParams } from './analytics.js';
import { DateParam } from './analytics-schemas.js';

const count = z.number().int();
const Violations = z.object({
  views: count.describe('views of paths the robots.txt in force disallowed for the agent'),
  paths: z.array(
    z.object({
      host: z.string(),
      path: z.string(),
      rule: z.string().describe('the robots.txt line that disallowed it'),
      views: count,
    }),
  ),
});
export const RobotsResponse = z.object({
  hosts: z
    .array(
      z.object({
        host: z.string(),
        versions: z.array(z.object({ hash: z.string(), firstSeenAt: z.string(), lastSeenAt: z.string() })),
        lastFetch: z
          .object({ at: z.string(), status: z.number().int().nullable(), error: z.string().nullable() })
          .nullable()
          .describe("the hourly fetch's last attempt: its status, or why it got none (the host's availability)"),
      }),
    )
    .describe('per host, every version of robots.txt seen, oldest first: when each was in force'),
  agents: z.array(
    z.object({
      agent: z.string(),
      views: count.describe('all views of the agent in the range'),
      fetchedRobotsTxt: z.boolean(),
      verified: Violations,
      unverified: Violations.describe('views nothing could verify'),
      spoofed: Violations.describe('views of user agents falsely claiming the agent'),
    }),
  ),
  fetchedRobotsTxt: z.array(z.string()).describe('AI agents that ever asked for robots.txt'),
  neverFetchedRobotsTxt: z.array(z.string()).describe('AI agents seen in the range that never did'),
});

/** robots.txt compliance of AI agents (Scribe addition). */
export const analyticsRobotsRoutes =
  ({ analytics }: { analytics: Analytics }): RouteModule =>
  (router, ctx) => {
    router.get('/v1/analytics/:projectId/ai/robots', requireApiKey(ctx), async (req, res) => {
      const { range } = exportParams(req, ctx.clock());
      const report = await analytics.aiRobots(authenticatedProject(res).id, range);
      res.json(report satisfies z.input<typeof RobotsResponse>);
    });
  };

export const analyticsRobotsOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/ai/robots',
    operationId: 'getAiRobots',
    summary: 'robots.txt compliance: AI views of paths disallowed for their agent at the time (Scribe addition)',
    description:
      "Same auth and date rules as `/visitors` (`dateFrom` inclusive, `dateTo` exclusive, default the last 30 days). Each view is judged by the version of the host's robots.txt in force when it was read (the latest first seen by then; `scribe robots import` keeps versions), for the agent's name as user-agent token; split by verified, unverified and spoofed views. Agents that asked for robots.txt are kept at ingest (from events and logs).",
    tag: 'Analytics',
    auth: 'read',
    pathParams: z.object({ projectId: z.string().describe('The project id (`scribe project list`).') }),
    query: z.object({ dateFrom: DateParam.optional(), dateTo: DateParam.optional() }),
    responses: { 200: { description: 'Violations per agent, versions per host', schema: RobotsResponse } },
  },
];
