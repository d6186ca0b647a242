import { z } from 'zod';
import type { OperationDoc } from '../openapi/operation-doc.js';
import { ExportQuery } from './analytics-schemas.js';
import {
  ReportFilterQuery,
  AgentPagesQuery,
  AgentPagesResponse,
  MissesResponse,
  PurposesQuery,
  PurposesResponse,
  ReferralsResponse,
} from './analytics-ai-schemas.js';

const ProjectPath = z.object({ projectId: z.string().describe('The project id (`scribe project list`).') });
const RANGE =
  'Same auth, date rules (`dateFrom` inclusive, `dateTo` exclusive, default the last 30 days) and errors as `/visitors`; `limit` (1–250, default 50) and `offset` page the rows.';

/** The AI traffic operations (Scribe additions), described with the schemas the routes validate with. */
export const analyticsAiOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/ai/purposes',
    operationId: 'getAiPurposes',
    summary: 'Views and visitors by purpose: human, search/indexing, training, assistant, agent (Scribe addition)',
    description: `${RANGE} Pages are ordered by \`views.totalViews\` descending, then \`path\`. With \`format=csv\` or \`Accept: text/csv\` the answer is \`text/csv\` — every page (no paging), columns \`path,humanViews,aiViews,searchIndexViews,trainingViews,otherAiViews,totalViews\` (views), CRLF line ends.`,
    tag: 'Analytics',
    auth: 'read',
    pathParams: ProjectPath,
    query: ExportQuery.extend(PurposesQuery.shape),
    responses: {
      200: {
        description: 'Site-wide totals and one page of per-path counts (or the CSV export)',
        schema: PurposesResponse,
      },
    },
  },
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/ai/agent-pages',
    operationId: 'getAiAgentPages',
    summary: 'Which pages each AI agent (or operator) reads (Scribe addition)',
    description: `${RANGE} Rows are ordered by views descending, then agent and path. With \`by=operator\` an operator's views add up and its visitors are the union of its agents' visitors.`,
    tag: 'Analytics',
    auth: 'read',
    pathParams: ProjectPath,
    query: ExportQuery.extend(AgentPagesQuery.shape).extend(ReportFilterQuery.shape),
    responses: { 200: { description: 'One page of agent × page rows', schema: AgentPagesResponse } },
  },
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/ai/misses',
    operationId: 'getAiMisses',
    summary: 'What AI agents asked for and did not get: requests answered 404, 410 or 5xx (Scribe addition)',
    description: `${RANGE} From imported server logs (\`/logs\`, \`scribe logs import\`): GET requests of pages by AI agents that the site answered 404, 410 or 5xx, counted by path, agent and status, most first.`,
    tag: 'Analytics',
    auth: 'read',
    pathParams: ProjectPath,
    query: ExportQuery.extend(ReportFilterQuery.shape),
    responses: { 200: { description: 'One page of path × agent × status rows', schema: MissesResponse } },
  },
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/ai/referrals',
    operationId: 'getAiReferrals',
    summary: 'Humans sent by AI assistants, per assistant and per page (Scribe addition)',
    description: `${RANGE} A human page view is referred by an assistant when its referrer is the assistant's site (chatgpt.com, perplexity.ai, claude.ai, gemini.google.com, copilot.microsoft.com…) or, failing that, the page URL's \`utm_source\` names one. \`assistants\` is complete; \`pages\` is paged. With \`path\`, \`assistants\` are the assistants that sent humans to that page (its own views and visitors); with \`agent\` (an assistant's name), that assistant alone.`,
    tag: 'Analytics',
    auth: 'read',
    pathParams: ProjectPath,
    query: ExportQuery.extend(ReportFilterQuery.shape),
    responses: {
      200: { description: 'Referrals per assistant and one page of assistant × page rows', schema: ReferralsResponse },
    },
  },
];
