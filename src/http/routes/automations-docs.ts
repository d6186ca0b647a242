import { z } from 'zod';
import type { OperationDoc } from '../openapi/operation-doc.js';
import { FIRST_READ_MS } from '../../automations/loaded-configs.js';
import { AutomationRunsResponse, AutomationsResponse, ListRunsQuery, TriggerResponse } from './automations-schemas.js';

const ProjectPath = z.object({ projectId: z.string().describe('The project id (`scribe project list`).') });

/** What a request that has to read the docs repository's config from GitHub first (no config read yet) may answer. */
const FIRST_READ = `The project's config is read from GitHub by the first request after the project was added, unless a push or the scheduler read it before: 409 when GitHub does not show the docs repository to the GitHub App (not installed on it, or no access; the sentence names the repository), 502 when GitHub fails the read (the sentence says what it answered), 503 when GitHub refuses the App's credentials (or automations are not configured), 504 when GitHub does not answer within ${FIRST_READ_MS / 1000} s (down or unreachable; the read goes on, and what it reads answers the next request).`;
const GITHUB_ERRORS = [409, 502, 503, 504];

/** The automation operations, described with the schemas the routes validate with. */
export const automationOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/v1/workflow/{projectId}/{automationId}/trigger',
    operationId: 'triggerAutomation',
    summary: 'Run an automation now',
    description: [
      "Starts a run of an automation loaded from the docs repository's `.scribe/automations.yml`: a follow-up on the automation's open pull request, or a new job. 404 for an automation that is not loaded (see its `problems`). A run over the daily cap answers 202 with `jobId: null` and is listed as `skipped`.",
      FIRST_READ,
    ].join(' '),
    tag: 'Automations',
    auth: 'write',
    pathParams: ProjectPath.extend({ automationId: z.string().describe('The automation id from the config file.') }),
    responses: { 202: { description: 'The run was started', schema: TriggerResponse } },
    errors: [404, ...GITHUB_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/automations/{projectId}',
    operationId: 'listAutomations',
    summary: 'List automations and config problems',
    description: FIRST_READ,
    tag: 'Automations',
    auth: 'read',
    pathParams: ProjectPath,
    responses: {
      200: {
        description: 'The loaded automations and the problems of those that did not load',
        schema: AutomationsResponse,
      },
    },
    errors: GITHUB_ERRORS,
  },
  {
    method: 'get',
    path: '/v1/automations/{projectId}/runs',
    operationId: 'listAutomationRuns',
    summary: 'List automation runs',
    description:
      'Newest first, with the trigger (push range and repository, schedule, manual, feedback with its page, pull_request with the source repository, pull request number and head commit of a docs draft), status, job and pull request.',
    tag: 'Automations',
    auth: 'read',
    pathParams: ProjectPath,
    query: ListRunsQuery,
    responses: { 200: { description: 'A page of runs', schema: AutomationRunsResponse } },
    errors: [400, 503],
  },
];
