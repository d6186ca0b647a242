import { z } from 'zod';
import type { OperationDoc } from '../openapi/operation-doc.js';
import { OutcomesQuery, OutcomesResponse } from './outcomes-schemas.js';

const ProjectPath = z.object({ projectId: z.string().describe('The project id (`scribe project list`).') });

/** Docs pull request outcomes. */
export const outcomesOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/v1/analytics/{projectId}/outcomes',
    operationId: 'listOutcomes',
    summary: 'Did the docs change help: merged Scribe docs pull requests and their outcome (Scribe addition)',
    description:
      "Each merged Scribe pull request's changed pages, measured over 7, 14 and 28 days before and after it went live (merge + `SCRIBE_DOCS_DEPLOY_DELAY`): distinct human and AI visitors, thumbs and helpful share, and misses of the URLs it created or moved pages for. Computed from the stored analytics on each read. Each window is `pending`, `partial` (with `daysSoFar`) or `complete`; a window's verdict (`helped`, `no effect`, `regressed`, `too little traffic to tell`) is given once it is complete. Newest merge first; `summary` counts the verdicts of every merge in the range. Pass `nextCursor` as `cursor` (with the same range) while it is not null.",
    tag: 'Problems',
    auth: 'read',
    pathParams: ProjectPath,
    query: OutcomesQuery,
    responses: { 200: { description: 'One page of outcomes', schema: OutcomesResponse } },
  },
];
