import { z } from 'zod';
import type { Request, Response } from 'express';
import type { RouteModule } from '../app.js';
import { authenticatedProject, requireApiKey } from '../authenticate.js';
import { parseInput } from '../parse-input.js';
import type { PurposeCounts } from '../../analytics/ai-traffic.js';
import type { Analytics } from '../../analytics/analytics.js';
import { exportParams } from './analytics.js';

const count = z.number().int();
export const PurposeCountsSchema = z.object({
  humanViews: count,
  aiViews: count.describe('searchIndexViews + trainingViews + otherAiViews'),
  searchIndexViews: count.describe('AI search and indexing crawlers (agent list kind `search`)'),
  trainingViews: count.describe('AI training crawlers (kind `crawler`)'),
  assistantViews: count.describe('AI assistants fetching for a user (kind `assistant`); part of otherAiViews'),
  agentViews: count.describe('autonomous AI agents (kind `agent`); part of otherAiViews'),
  otherAiViews: count.describe('assistants, agents and unidentified AI agents'),
  totalViews: count.describe('humanViews + aiViews'),
  unverifiedAiViews: count.describe("AI user agents from outside their operator's published ranges (spoofed), counted in no other column; 0 under visitors"),
});
const Split = z.object({ views: PurposeCountsSchema, visitors: PurposeCountsSchema.describe('The same columns counting distinct visitors') });
export const PurposesResponse = z.object({ totals: Split, pages: z.array(Split.extend({ path: z.string() })), hasMore: z.boolean() });
export const PurposesQuery = z.object({ format: z.enum(['json', 'csv']).optional().describe('`csv` (or `Accept: text/csv`): every page as CSV, no paging') });

export const AgentPagesQuery = z.object({ by: z.enum(['agent', 'operator']).default('agent').describe('group by agent, or by the operator named in the agent list') });
export const AgentPagesResponse = z.object({
  rows: z.array(z.object({ agent: z.string().describe('agent name, or operator with `by=operator` ("unknown" when the list names none)'), path: z.string(), views: count, visitors: count })),
  hasMore: z.boolean(),
});

export const ReferralsResponse = z.object({
  assistants: z.array(z.object({ assistant: z.string(), views: count, visitors: count })),
  pages: z.array(z.object({ assistant: z.string(), path: z.string(), views: count, visitors: count })),
  hasMore: z.boolean().describe('more `pages` rows beyond this page'),
});

export const MissesResponse = z.object({
  rows: z.array(z.object({ path: z.string(), agent: z.string(), status: count.describe('404, 410 or 5xx'), count: count.describe('requests') })),
  hasMore: z.boolean(),
});

/** The compatible CSV export's columns, in its order, after the path. */
export const CSV_COLUMNS = ['humanViews', 'aiViews', 'searchIndexViews', 'trainingViews', 'otherAiViews', 'totalViews'] as const;

function csvField(value: string): string {
  // a leading =, +, -, @ would be read as a formula by spreadsheets
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function wantsCsv(req: Request, format: 'json' | 'csv' | undefined): boolean {
  return format ? format === 'csv' : req.accepts(['application/json', 'text/csv']) === 'text/csv';
}

function sendCsv(res: Response, rows: { path: string; views: PurposeCounts }[]): void {
  const lines = [['path', ...CSV_COLUMNS].join(','), ...rows.map((r) => [csvField(r.path), ...CSV_COLUMNS.map((c) => r.views[c])].join(','))];
  res.type('text/csv; charset=utf-8').set('Content-Disposition', 'attachment; filename="ai-traffic.csv"').send(`${lines.join('\r\n')}\r\n`);
}

/** AI traffic to act on: purpose split (JSON and CSV), agent/operator × page, what AI did not get, AI assistant referrals. */
export const analyticsAiRoutes = ({ analytics }: { analytics: Analytics }): RouteModule => (router, ctx) => {
  const auth = requireApiKey(ctx);
  router.get('/v1/analytics/:projectId/ai/purposes', auth, async (req, res) => {
    const { range, page } = exportParams(req, ctx.clock());
    const { format } = parseInput(PurposesQuery, { format: req.query.format }, 'query parameters');
    const split = await analytics.aiPurposes(authenticatedProject(res).id, range);
    if (wantsCsv(req, format)) return sendCsv(res, split.pages);
    const pages = split.pages.slice(page.offset, page.offset + page.limit);
    res.json({ totals: split.totals, pages, hasMore: page.offset + page.limit < split.pages.length } satisfies z.input<typeof PurposesResponse>);
  });
  router.get('/v1/analytics/:projectId/ai/agent-pages', auth, async (req, res) => {
    const { range, page } = exportParams(req, ctx.clock());
    const { by } = parseInput(AgentPagesQuery, { by: req.query.by }, 'query parameters');
    const rows = await analytics.aiAgentPages(authenticatedProject(res).id, range, by);
    res.json({ rows: rows.slice(page.offset, page.offset + page.limit), hasMore: page.offset + page.limit < rows.length } satisfies z.input<typeof AgentPagesResponse>);
  });
  router.get('/v1/analytics/:projectId/ai/misses', auth, async (req, res) => {
    const { range, page } = exportParams(req, ctx.clock());
    const rows = await analytics.aiMisses(authenticatedProject(res).id, range);
    res.json({ rows: rows.slice(page.offset, page.offset + page.limit), hasMore: page.offset + page.limit < rows.length } satisfies z.input<typeof MissesResponse>);
  });
  router.get('/v1/analytics/:projectId/ai/referrals', auth, async (req, res) => {
    const { range, page } = exportParams(req, ctx.clock());
    const referrals = await analytics.aiReferrals(authenticatedProject(res).id, range);
    res.json({
      assistants: referrals.assistants,
      pages: referrals.pages.slice(page.offset, page.offset + page.limit),
      hasMore: page.offset + page.limit < referrals.pages.length,
    } satisfies z.input<typeof ReferralsResponse>);
  });
};
