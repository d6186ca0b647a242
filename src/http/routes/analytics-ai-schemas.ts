import { z } from 'zod';

/** Request and response shapes of the AI traffic routes (routes/analytics-ai.ts), as zod schemas. */

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
  unverifiedAiViews: count.describe(
    "AI user agents from outside their operator's published ranges (spoofed), counted in no other column; under visitors, the distinct visitor ids among them (0 for views stored before spoofed views were given one)",
  ),
});
const Split = z.object({
  views: PurposeCountsSchema,
  visitors: PurposeCountsSchema.describe(
    'The same columns counting distinct visitors over each whole column (a visitor id seen as a browser and as an AI agent counts once in totalViews; one used by two agents once in aiViews); humanViews, aiViews and totalViews equal the visitors export',
  ),
});
export const PurposesResponse = z.object({
  totals: Split,
  pages: z.array(Split.extend({ path: z.string() })),
  hasMore: z.boolean(),
  verification: z
    .object({
      signature: count.describe("AI views signed with Web Bot Auth by a key of the operator's directory"),
      ipRange: count.describe("AI views from inside the operator's fresh published address list"),
      reverseDns: count.describe('AI views confirmed by forward-confirmed reverse DNS'),
      unverifiable: count.describe('AI views nothing could verify or refute'),
      spoofed: count.describe('unverifiedAiViews: outside the published list, or a failing signature'),
    })
    .describe('AI views over the range by how they were verified (totals.views.aiViews = the first four)'),
});
export const PurposesQuery = z.object({
  format: z.enum(['json', 'csv']).optional().describe('`csv` (or `Accept: text/csv`): every page as CSV, no paging'),
});

export const AgentPagesQuery = z.object({
  by: z
    .enum(['agent', 'operator'])
    .default('agent')
    .describe('group by agent, or by the operator named in the agent list'),
});
export const AgentPagesResponse = z.object({
  rows: z.array(
    z.object({
      agent: z.string().describe('agent name, or operator with `by=operator` ("unknown" when the list names none)'),
      path: z.string(),
      views: count,
      visitors: count,
    }),
  ),
  hasMore: z.boolean(),
});

export const ReferralsResponse = z.object({
  assistants: z.array(z.object({ assistant: z.string(), views: count, visitors: count })),
  pages: z.array(z.object({ assistant: z.string(), path: z.string(), views: count, visitors: count })),
  hasMore: z.boolean().describe('more `pages` rows beyond this page'),
});

export const MissesResponse = z.object({
  rows: z.array(
    z.object({
      path: z.string(),
      agent: z.string(),
      status: count.describe('404, 410 or 5xx'),
      count: count.describe('requests'),
    }),
  ),
  hasMore: z.boolean(),
});

/** Narrows a report to one page and/or one agent (Scribe addition): the rows are filtered, then paged. */
export const ReportFilterQuery = z.object({
  path: z.string().min(1).max(2048).optional().describe('Only this page (as the report lists paths)'),
  agent: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only this agent (with `by=operator` on agent-pages, this operator; on referrals, this assistant)'),
});
