import { z } from 'zod';
import type { OperationDoc } from '../openapi/operation-doc.js';
import {
  BrowserFeedback,
  BrowserSearch,
  FeedbackByPageQuery,
  FeedbackByPageResponse,
  FeedbackItem,
  FeedbackQuery,
  FeedbackStatusUpdate,
  FeedbackResponse,
  MAX_SIGNAL_BATCH,
  SearchesQuery,
  SearchesResponse,
  ServerFeedback,
  ServerSearch,
} from './analytics-feedback-schemas.js';
import { FEEDBACK_PER_VISITOR_HOUR } from '../../analytics/signals/submit-feedback.js';
import { SEARCHES_PER_VISITOR_HOUR } from '../../analytics/signals/submit-searches.js';
import { MAX_COMMENT_LENGTH } from '../../analytics/signals/normalize.js';
import { BatchIngestResponse } from './analytics-batch-schemas.js';

const STARTS_AUTOMATIONS =
  'Stored feedback may start `on: feedback` automation runs (see `GET /v1/automations/{projectId}/runs`); the answer comes once they are claimed.';

const ProjectPath = z.object({ projectId: z.string().describe('The project id (`scribe project list`).') });

const PAGING =
  '`dateFrom` inclusive, `dateTo` exclusive (`YYYY-MM-DD` or an ISO 8601 date-time; defaults: `dateTo` = now, `dateFrom` = `dateTo` − 30 days). Cursor paging: pass `nextCursor` as `cursor` while it is not null. A cursor keeps the range, filters and the listing as it stood at the first page (rows stored later are left out; feedback whose status, vote or comment changed later is read as it was then), so pages neither repeat nor skip rows, and counts do not shift, while rows arrive or change; a cursor that is not exactly as returned (any character added, removed or changed), was made for another listing or project, or is given with different `dateFrom`/`dateTo`/filters is a 400.';

const ingestDescription = (what: string) =>
  `A JSON array of at most ${MAX_SIGNAL_BATCH.toLocaleString('en')} ${what}; each is accepted or rejected on its own (\`rejected\` lists index and reason). An item with an \`id\` stored before is accepted but not stored twice (\`duplicates\`), also over the limit. Give \`ip\` (+ \`userAgent\`) or \`visitorId\` to have it counted against the per-visitor limit, which is keyed on the address alone (whatever the user agent) and on \`visitorId\`; only keyed hashes are kept.`;

/** The feedback and search operations, described with the schemas the routes validate with. */
export const analyticsFeedbackOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/feedback',
    operationId: 'getFeedback',
    summary: 'Page feedback, newest first',
    description: `Thumbs votes and comments, newest first (ties: higher id first). Comments are plain text as submitted: escape them wherever you show them. ${PAGING}`,
    tag: 'Analytics',
    auth: 'read',
    pathParams: ProjectPath,
    query: FeedbackQuery,
    responses: { 200: { description: 'One page of feedback', schema: FeedbackResponse } },
  },
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/feedback/by-page',
    operationId: 'getFeedbackByPage',
    summary: 'Feedback counts per page',
    description: `Per path: thumbs up and down (\`contextual\` and \`thumbs_only\` votes), \`code_snippet\` feedback, and all feedback; most feedback first, then path. ${PAGING}`,
    tag: 'Analytics',
    auth: 'read',
    pathParams: ProjectPath,
    query: FeedbackByPageQuery,
    responses: { 200: { description: 'One page of per-path counts', schema: FeedbackByPageResponse } },
  },
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/searches',
    operationId: 'getSearches',
    summary: 'Search terms, most searched first',
    description: `Terms are grouped case-insensitively with whitespace collapsed. \`hits\`: searches of the term; \`ctr\`: clicks on its results ÷ hits, at most 1; \`topClickedPage\`: its most clicked result; \`totalSearches\`: all searches in the range. Ordered by hits descending, then term. ${PAGING}`,
    tag: 'Analytics',
    auth: 'read',
    pathParams: ProjectPath,
    query: SearchesQuery,
    responses: { 200: { description: 'One page of search terms', schema: SearchesResponse } },
  },
  {
    method: 'post',
    path: '/v1/analytics/{projectId}/feedback',
    operationId: 'ingestFeedback',
    summary: 'Submit page feedback collected by your own site (Scribe addition)',
    description: `${ingestDescription('feedback items')} Comments: at most ${MAX_COMMENT_LENGTH} characters; ${FEEDBACK_PER_VISITOR_HOUR} submissions per address (and per \`visitorId\`) and hour. ${STARTS_AUTOMATIONS}`,
    tag: 'Analytics ingestion',
    auth: 'write',
    pathParams: ProjectPath,
    body: [{ contentType: 'application/json', schema: z.array(ServerFeedback).max(MAX_SIGNAL_BATCH) }],
    responses: { 202: { description: 'What was accepted and rejected', schema: BatchIngestResponse } },
  },
  {
    method: 'patch',
    path: '/v1/analytics/{projectId}/feedback/{feedbackId}',
    operationId: 'setFeedbackStatus',
    summary: 'Set the review status of a feedback entry (Scribe addition)',
    description:
      'New feedback is `pending`; move it to `in_progress`, `resolved` or `dismissed` as your team works through it (the `status` filter of the listings reads it). Answers the entry as the listing shows it.',
    tag: 'Analytics',
    auth: 'write',
    pathParams: ProjectPath.extend({ feedbackId: z.string().describe('The `id` of a feedback entry.') }),
    body: [{ contentType: 'application/json', schema: FeedbackStatusUpdate }],
    responses: { 200: { description: 'The updated entry', schema: FeedbackItem } },
    errors: [404],
  },
  {
    method: 'post',
    path: '/v1/analytics/{projectId}/searches',
    operationId: 'ingestSearches',
    summary: 'Submit searches and result clicks collected by your own site (Scribe addition)',
    description: `${ingestDescription('searches (or, with `clickedPath`, clicks on a result)')} ${SEARCHES_PER_VISITOR_HOUR} per address (and per \`visitorId\`) and hour.`,
    tag: 'Analytics ingestion',
    auth: 'write',
    pathParams: ProjectPath,
    body: [{ contentType: 'application/json', schema: z.array(ServerSearch).max(MAX_SIGNAL_BATCH) }],
    responses: { 202: { description: 'What was accepted and rejected', schema: BatchIngestResponse } },
  },
  {
    method: 'post',
    path: '/api/feedback',
    operationId: 'trackerFeedback',
    summary: "Browser page feedback (what the tracker's widget sends)",
    description:
      "Accepted only from the project's hostnames and from people (not bots); always answers 202 for a well-formed submission, never revealing whether it was stored. A second submission with the same `submission` id from the same visitor on the same page updates the first (the comment that follows a vote); on another page it is a submission of its own. " +
      STARTS_AUTOMATIONS,
    tag: 'Analytics ingestion',
    body: [
      { contentType: 'application/json', schema: BrowserFeedback },
      { contentType: 'text/plain', description: 'The same JSON, as the widget sends it' },
    ],
    responses: { 202: { description: 'Received' } },
  },
  {
    method: 'post',
    path: '/api/search',
    operationId: 'trackerSearch',
    summary: "Browser search or result click (what `scribe('search')` sends)",
    description:
      'Same acceptance rules as `/api/feedback`. With `clickedPath` it records a click on a result of `query`.',
    tag: 'Analytics ingestion',
    body: [
      { contentType: 'application/json', schema: BrowserSearch },
      { contentType: 'text/plain', description: 'The same JSON, as sent by navigator.sendBeacon' },
    ],
    responses: { 202: { description: 'Received' } },
  },
];
