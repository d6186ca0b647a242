import { z } from 'zod';
import type { OperationDoc } from '../openapi/operation-doc.js';
import {
  BrowserMiss,
  FixRequest,
  FixResponse,
  PageQuery,
  PageResponse,
  ProblemPath,
  ProblemResponse,
  ProblemsQuery,
  ProblemsResponse,
  ProblemUpdate,
} from './problems-schemas.js';
import { MAX_FIX_PROBLEMS } from '../../problems/problem-kinds.js';

const ProjectPath = z.object({ projectId: z.string().describe('The project id (`scribe project list`).') });

const KINDS =
  '`missing-page`: a URL readers or AI agents request and get 404/410 (from imported logs and the tracker), with up to three pages at the docs ref to redirect it to; `negative-feedback`: a page with thumbs-down votes or comments still `pending`; `search-gap`: a query readers search again and again and click no result of; `stale-page`: a page a docs review of a source pull request named, whose change merged, and that no Scribe docs pull request changed since.';

/** The problems queue and a page's whole story. */
export const problemsOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/problems',
    operationId: 'listProblems',
    summary: 'What readers tell you is wrong, most readers affected first (Scribe addition)',
    description: `Problems are derived from the stored signals of the range each time they are read (only their status is stored), so they never drift from the reports. ${KINDS} \`readers\`: distinct visitors affected in the range; \`trend\` compares it with the range of equal length just before. A dismissed problem is \`open\` again once its signal comes back after the dismissal. Ordered by readers descending, then id; pass \`nextCursor\` as \`cursor\` (with the same range and filters) while it is not null.`,
    tag: 'Problems',
    auth: 'read',
    pathParams: ProjectPath,
    query: ProblemsQuery,
    responses: { 200: { description: 'One page of problems', schema: ProblemsResponse } },
  },
  {
    method: 'post',
    path: '/v1/analytics/{projectId}/problems/fix',
    operationId: 'fixProblems',
    summary: 'Start one agent job that fixes the given problems (Scribe addition)',
    description: `One agent job for up to ${MAX_FIX_PROBLEMS} problems of the project: its prompt states each problem and its evidence (comments verbatim, requested URLs and redirect candidates, queries and counts, the review's findings), and for missing pages asks for redirects in the docs framework's own configuration, which the edit checks verify before the pull request. Each problem becomes \`in_progress\` with the job's id, \`fixed\` when its pull request merges (then \`verified\` or \`regressed\` once the merge's outcome shows its signal improved or got worse: \`GET /v1/analytics/{projectId}/outcomes\`), \`open\` again when it is closed unmerged. Unknown ids (or another project's) are 404; dismissed, fixed or already-in-progress problems are 409, each named in \`details\`. Asking again for a problem already being fixed by a job answers that job. Answers the job as \`GET /v2/agent/{projectId}/job/{id}\` does.`,
    tag: 'Problems',
    auth: 'write',
    pathParams: ProjectPath,
    body: [{ contentType: 'application/json', schema: FixRequest }],
    responses: { 202: { description: 'The job started (or the one already fixing them)', schema: FixResponse } },
    errors: [409, 429, 503],
  },
  {
    method: 'patch',
    path: '/v1/analytics/{projectId}/problems/{id}',
    operationId: 'updateProblem',
    summary: 'Dismiss a problem, or open it again (Scribe addition)',
    description:
      '`{"status": "dismissed", "reason": "…"}` dismisses (it stays dismissed until its signal comes back after the dismissal); `{"status": "open"}` opens it again. Answers the problem as the queue shows it over the last 30 days.',
    tag: 'Problems',
    auth: 'write',
    pathParams: ProblemPath,
    body: [{ contentType: 'application/json', schema: ProblemUpdate }],
    responses: { 200: { description: 'The problem', schema: ProblemResponse } },
    errors: [409],
  },
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/page',
    operationId: 'getPageStory',
    summary: "A page's whole story (Scribe addition)",
    description:
      "For one page over the range: human and AI visitors per day beside the previous range of equal length, the AI agents that read it and their purposes, the assistants that sent humans to it, missing URLs whose redirect candidates point at it, its feedback, the searches whose results led to it, docs reviews that named it, and the Scribe docs pull requests that changed it. Dates as the reports; the range may span at most 400 days (a row per day, as `/visitors/daily`). With ClickHouse configured, the page's visitors, agents and referrals are read there.",
    tag: 'Problems',
    auth: 'read',
    pathParams: ProjectPath,
    query: PageQuery,
    responses: { 200: { description: 'The page', schema: PageResponse } },
  },
  {
    method: 'post',
    path: '/api/miss',
    operationId: 'trackerMiss',
    summary: 'Browser "not found" beacon (what `scribe(\'404\')` sends)',
    description:
      "Call `scribe('404')` on your site's 404 page: the URL the reader asked for becomes a missing page of the problems queue, as a 404 of an imported log does (once per reader, page and minute). Accepted only from the project's hostnames and from people; always answers 202 for a well-formed beacon.",
    tag: 'Analytics ingestion',
    body: [
      { contentType: 'application/json', schema: BrowserMiss },
      { contentType: 'text/plain', description: 'The same JSON, as navigator.sendBeacon sends it' },
    ],
    responses: { 202: { description: 'Received' } },
  },
];
