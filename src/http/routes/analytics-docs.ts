import { z } from 'zod';
import type { OperationDoc } from '../openapi/operation-doc.js';
import { AgentsResponse, DailyVisitorsResponse } from './analytics-breakdowns-schemas.js';
import {
  ExportQuery,
  LogsQuery,
  LogsResponse,
  MAX_BATCH,
  ServerEvent,
  ViewsResponse,
  VisitorsResponse,
} from './analytics-schemas.js';
import { BatchIngestResponse } from './analytics-batch-schemas.js';
import { TrackerEvent } from './analytics-tracker-schemas.js';

const ProjectPath = z.object({ projectId: z.string().describe('The project id (`scribe project list`).') });

const EXPORT_DESCRIPTION =
  '`dateFrom` inclusive, `dateTo` exclusive, each `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time; defaults: `dateTo` = now, `dateFrom` = `dateTo` − 30 days. Rows are ordered by `total` descending, then `path` ascending, so walking pages with `offset += limit` while `hasMore` returns every path exactly once.';

/** The analytics operations, described with the schemas the routes validate with. */
export const analyticsOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/visitors',
    operationId: 'getVisitors',
    summary: 'Unique visitors per page and site-wide, human vs AI',
    description: `Exact distinct visitors in the range; \`total\` counts a visitor once even if seen as both human and AI. ${EXPORT_DESCRIPTION}`,
    tag: 'Analytics',
    auth: 'read',
    pathParams: ProjectPath,
    query: ExportQuery,
    responses: { 200: { description: 'Totals and one page of per-path counts', schema: VisitorsResponse } },
  },
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/views',
    operationId: 'getViews',
    summary: 'Page views per page and site-wide, human vs AI',
    description: EXPORT_DESCRIPTION,
    tag: 'Analytics',
    auth: 'read',
    pathParams: ProjectPath,
    query: ExportQuery,
    responses: { 200: { description: 'Totals and one page of per-path view counts', schema: ViewsResponse } },
  },
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/visitors/daily',
    operationId: 'getDailyVisitors',
    summary: 'Site-wide unique visitors per UTC day, human vs AI (Scribe addition)',
    description: `Same date rules as the export (at most 400 days); each day is the exact count the visitors export gives for that day alone. \`limit\`/\`offset\` are accepted and ignored.`,
    tag: 'Analytics',
    auth: 'read',
    pathParams: ProjectPath,
    query: ExportQuery,
    responses: { 200: { description: 'One entry per day the range touches', schema: DailyVisitorsResponse } },
  },
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/agents',
    operationId: 'getAiAgents',
    summary: 'AI traffic by agent and kind (Scribe addition)',
    description:
      "Distinct visitors and page views per AI agent, most visitors first, with `verifiedVisitors` (seen at least once in the range from inside a fresh authoritative list of the agent's operator, or confirmed by reverse DNS) and `unverifiableVisitors` (the others): a visitor seen both ways is verified, so the two add up to `visitors`. `spoofed` lists AI user agents from outside their operator's ranges, by the agent they claimed; they are counted in no other figure. Every visitors figure is a distinct count over its whole cell. Same date rules as the export; `limit`/`offset` are accepted and ignored.",
    tag: 'Analytics',
    auth: 'read',
    pathParams: ProjectPath,
    query: ExportQuery,
    responses: { 200: { description: 'One entry per AI agent seen in the range', schema: AgentsResponse } },
  },
  {
    method: 'post',
    path: '/v1/analytics/{projectId}/events',
    operationId: 'ingestEvents',
    summary: 'Ingest server-side page views',
    description: `A JSON array of at most ${MAX_BATCH.toLocaleString('en')} events. Each event is accepted or rejected on its own (\`rejected\` lists index and reason); an event with an \`id\` already stored is accepted once and counted in \`duplicates\`.`,
    tag: 'Analytics ingestion',
    auth: 'write',
    pathParams: ProjectPath,
    body: [{ contentType: 'application/json', schema: z.array(ServerEvent).max(MAX_BATCH) }],
    responses: { 202: { description: 'What was accepted and rejected', schema: BatchIngestResponse } },
  },
  {
    method: 'post',
    path: '/v1/analytics/{projectId}/logs',
    operationId: 'ingestLogs',
    summary: 'Ingest web-server or CDN logs',
    description:
      '`text/plain`: nginx/Apache combined log lines; `application/x-ndjson`: Cloudflare Logpush `http_requests` or Vercel log-drain records. Only successful (2xx/3xx) GET page requests count; static assets do not. Bad lines are counted and reported, never fatal.',
    tag: 'Analytics ingestion',
    auth: 'write',
    pathParams: ProjectPath,
    query: LogsQuery,
    body: [
      { contentType: 'text/plain', description: 'Combined log lines' },
      { contentType: 'application/x-ndjson', description: 'One JSON record per line' },
    ],
    responses: { 202: { description: 'Lines read, accepted and skipped (by reason)', schema: LogsResponse } },
  },
  {
    method: 'get',
    path: '/js/scribe.js',
    operationId: 'trackerScript',
    summary: 'The browser tracker (no cookies)',
    description:
      'Include with `<script defer src="https://<scribe>/js/scribe.js" data-project="<projectId>"></script>`.',
    tag: 'Analytics ingestion',
    responses: { 200: { description: 'JavaScript', contentType: 'application/javascript' } },
  },
  {
    method: 'post',
    path: '/api/event',
    operationId: 'trackerEvent',
    summary: 'Browser page view (what the tracker sends)',
    description:
      "Accepted only from the project's hostnames; always answers 202 for a well-formed event, never revealing whether it was stored. The answer comes after the group commit holding the event: a 202 means stored; a failed commit answers 503.",
    tag: 'Analytics ingestion',
    body: [
      { contentType: 'application/json', schema: TrackerEvent },
      { contentType: 'text/plain', description: 'The same JSON, as sent by navigator.sendBeacon' },
    ],
    responses: { 202: { description: 'Received (and stored, unless dropped)' } },
    errors: [503],
  },
];
