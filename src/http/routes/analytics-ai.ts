import type { z } from 'zod';
import type { Request, Response } from 'express';
import type { RouteModule } from '../app.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { parseInput } from '../parse-input.js';
import type { PurposeCounts } from '../../analytics/reports/ai-purposes.js';
import type { Analytics } from '../../analytics/analytics.js';
import { exportParams } from './analytics.js';
import { offsetPage } from '../../analytics/reports/offset-page.js';
import {
  AgentPagesQuery,
  PurposesQuery,
  ReportFilterQuery,
  type AgentPagesResponse,
  type MissesResponse,
  type PurposesResponse,
  type ReferralsResponse,
} from './analytics-ai-schemas.js';

/** The compatible CSV export's columns, in its order, after the path. */
export const CSV_COLUMNS = [
  'humanViews',
  'aiViews',
  'searchIndexViews',
  'trainingViews',
  'otherAiViews',
  'totalViews',
] as const;

function csvField(value: string): string {
  // a leading =, +, -, @ would be read as a formula by spreadsheets
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function wantsCsv(req: Request, format: 'json' | 'csv' | undefined): boolean {
  return format ? format === 'csv' : req.accepts(['application/json', 'text/csv']) === 'text/csv';
}

function sendCsv(res: Response, rows: { path: string; views: PurposeCounts }[]): void {
  // one string built as it goes: 5,000 rows joined from arrays cost several times more
  let body = `${['path', ...CSV_COLUMNS].join(',')}\r\n`;
  for (const { path, views } of rows) {
    body += csvField(path);
    for (const column of CSV_COLUMNS) body += `,${views[column]}`;
    body += '\r\n';
  }
  res.type('text/csv; charset=utf-8').set('Content-Disposition', 'attachment; filename="ai-traffic.csv"').send(body);
}

/** A report read whole, to be filtered before it is paged. */
const EVERY_ROW = { limit: Number.MAX_SAFE_INTEGER, offset: 0 };

/** The `path` and `agent` filters of a query; undefined when neither is given (the report pages itself). */
function reportFilter(req: Request): { path?: string; agent?: string } | undefined {
  const filter = parseInput(ReportFilterQuery, { path: req.query.path, agent: req.query.agent }, 'query parameters');
  return filter.path === undefined && filter.agent === undefined ? undefined : filter;
}

/** The rows of one page and/or agent, in the report's order, then the page asked for. */
function filtered<Row extends { path: string; agent: string }>(
  rows: Row[],
  filter: { path?: string; agent?: string },
  page: { limit: number; offset: number },
) {
  return offsetPage(
    rows.filter(
      (r) =>
        (filter.path === undefined || r.path === filter.path) &&
        (filter.agent === undefined || r.agent === filter.agent),
    ),
    page,
  );
}

type ReferralsBody = z.input<typeof ReferralsResponse>;

/** AI traffic to act on: purpose split (JSON and CSV), agent/operator × page, what AI did not get, AI assistant referrals. */
export const analyticsAiRoutes =
  ({ analytics }: { analytics: Analytics }): RouteModule =>
  (router, ctx) => {
    const auth = requireApiKey(ctx);
    router.get('/v1/analytics/:projectId/ai/purposes', auth, async (req, res) => {
      const { range, page } = exportParams(req, ctx.clock());
      const { format } = parseInput(PurposesQuery, { format: req.query.format }, 'query parameters');
      const projectId = authenticatedProject(res).id;
      if (wantsCsv(req, format)) return sendCsv(res, await analytics.aiPurposeViews(projectId, range));
      const [split, verification] = await Promise.all([
        analytics.aiPurposes(projectId, range, page),
        analytics.aiVerification(projectId, range),
      ]);
      res.json({ totals: split.totals, pages: split.pages, hasMore: split.hasMore, verification } satisfies z.input<
        typeof PurposesResponse
      >);
    });
    router.get('/v1/analytics/:projectId/ai/agent-pages', auth, async (req, res) => {
      const { range, page } = exportParams(req, ctx.clock());
      const { by } = parseInput(AgentPagesQuery, { by: req.query.by }, 'query parameters');
      const filter = reportFilter(req);
      const projectId = authenticatedProject(res).id;
      const pages = filter
        ? filtered((await analytics.aiAgentPages(projectId, range, by, EVERY_ROW)).rows, filter, page)
        : await analytics.aiAgentPages(projectId, range, by, page);
      res.json(pages satisfies z.input<typeof AgentPagesResponse>);
    });
    router.get('/v1/analytics/:projectId/ai/misses', auth, async (req, res) => {
      const { range, page } = exportParams(req, ctx.clock());
      const filter = reportFilter(req);
      const projectId = authenticatedProject(res).id;
      const misses = filter
        ? filtered((await analytics.aiMisses(projectId, range, EVERY_ROW)).rows, filter, page)
        : await analytics.aiMisses(projectId, range, page);
      res.json(misses satisfies z.input<typeof MissesResponse>);
    });
    router.get('/v1/analytics/:projectId/ai/referrals', auth, async (req, res) => {
      const { range, page } = exportParams(req, ctx.clock());
      const filter = reportFilter(req);
      const projectId = authenticatedProject(res).id;
      if (!filter) return res.json((await analytics.aiReferrals(projectId, range, page)) satisfies ReferralsBody);
      const all = await analytics.aiReferrals(projectId, range);
      const rows = filtered(
        all.pages.map((r) => ({ ...r, agent: r.assistant })),
        filter,
        EVERY_ROW,
      ).rows.map(({ agent: _, ...r }) => r);
      // one page's assistants are its rows (exact: one path); otherwise the assistant's own totals
      const assistants =
        filter.path === undefined
          ? all.assistants.filter((a) => a.assistant === filter.agent)
          : rows.map(({ assistant, views, visitors }) => ({ assistant, views, visitors }));
      const paged = offsetPage(rows, page);
      res.json({ assistants, pages: paged.rows, hasMore: paged.hasMore } satisfies ReferralsBody);
    });
  };
