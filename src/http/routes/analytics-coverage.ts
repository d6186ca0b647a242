import { z } from 'zod';
import type { Analytics } from '../../analytics/analytics.js';
import { PAGES_PER_OPERATOR } from '../../analytics/reports/ai-coverage.js';
import type { OperationDoc } from '../openapi/operation-doc.js';
import type { RouteModule } from '../app.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import type { DocsSites } from '../mcp/docs-sites.js';
import { exportParams } from './analytics.js';
import { DateParam } from './analytics-schemas.js';

const count = z.number().int();
const share = z.number().describe('0–1, four decimals');
const Section = z.object({ group: z.string(), pages: count, pagesRead: count, share });
const CrawlToReferral = z.object({
  aiViews: count.describe("the operator's AI views"),
  referrals: count.describe('human views its assistants sent (referrer or utm_source)'),
  ratio: z.number().nullable().describe('aiViews / referrals, four decimals; null when none were sent'),
});
export const CoverageResponse = z.object({
  commit: z.string().describe("the docs commit whose navigation was counted (the project's ref)"),
  pages: count.describe('distinct pages of the navigation'),
  rows: z.array(
    z.object({
      operator: z.string(),
      purpose: z.string().describe('searchIndex, training, assistant, agent or other'),
      views: count,
      pagesRead: count.describe('distinct navigation pages read in the range'),
      share,
      mostReadSections: z.array(Section).describe('at most three, highest share first'),
      neverReadSections: z.array(z.string()),
    }),
  ),
  crawlToReferral: z.array(
    z.object({
      operator: z.string(),
      ...CrawlToReferral.shape,
      pages: z
        .array(z.object({ path: z.string(), ...CrawlToReferral.shape }))
        .describe(
          `the pages its crawlers read or its assistants sent readers to: most AI views first, then referrals, then path; at most ${PAGES_PER_OPERATOR}`,
        ),
      morePages: count.describe('pages with either count beyond those listed (counted in the totals)'),
    }),
  ),
});

/** Docs coverage by AI operators (Scribe addition): the navigation from the docs index, the reads from analytics. */
export const analyticsCoverageRoutes =
  ({ analytics, sites }: { analytics: Analytics; sites: Pick<DocsSites, 'get'> }): RouteModule =>
  (router, ctx) => {
    router.get('/v1/analytics/:projectId/ai/coverage', requireApiKey(ctx), async (req, res) => {
      const { range } = exportParams(req, ctx.clock());
      const project = authenticatedProject(res);
      const site = await sites.get(project);
      const sections = site.navigation.map((g) => ({ group: g.group, pages: g.pages.map((p) => p.path) }));
      const report = await analytics.aiCoverage(project.id, range, sections);
      res.json({ commit: site.sha, ...report } satisfies z.input<typeof CoverageResponse>);
    });
  };

export const analyticsCoverageOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/ai/coverage',
    operationId: 'getAiCoverage',
    summary:
      'How much of the docs each AI operator reads, per purpose, and its crawl-to-referral ratio (Scribe addition)',
    description:
      "Same auth and date rules as `/visitors`. Pages are those of the docs navigation (`docs.json`, else every page) at the project's ref; a page counts once however often it was read. Spoofed views count nowhere. 503 when the docs repository cannot be read.",
    tag: 'Analytics',
    auth: 'read',
    pathParams: z.object({ projectId: z.string().describe('The project id (`scribe project list`).') }),
    query: z.object({ dateFrom: DateParam.optional(), dateTo: DateParam.optional() }),
    responses: { 200: { description: 'Coverage per operator and purpose', schema: CoverageResponse } },
    errors: [503],
  },
];
