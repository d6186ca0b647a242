import { z } from 'zod';
import type { OperationDoc } from '../openapi/operation-doc.js';
import { AutomationRunsResponse, AutomationsResponse, ListRunsQuery, TriggerResponse } from './automations-schemas.js';

const ProjectPath = z.object({ projectId: z.string().describe('The project id (`scribe project list`).') });

/** The automation operations, described with the schemas the routes validate with. */
export const automationOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/v1/workflow/{projectId}/{automationId}/trigger',
    operationId: 'triggerAutomation',
    summary: 'Run an automation now',
    description:
      "Starts a run of an automation loaded from the docs repository's `.scribe/automations.yml`: a follow-up on the automation's open pull request, or a new job. 404 for an automation that is not loaded (see its `problems`). A run over the daily cap answers 202 with `jobId: null` and is listed as `skipped`.",
    tag: 'Automations',
    auth: 'write',
    pathParams: ProjectPath.extend({ automationId: z.string().describe('The automation id from the config file.') }),
    responses: { 202: { description: 'The run was started', schema: TriggerResponse } },
    errors: [404, 503],
  },
  {
    method: 'get',
    path: '/v1/automations/{projectId}',
    operationId: 'listAutomations',
    summary: 'List automations and config problems',
    tag: 'Automations',
    auth: 'read',
    pathParams: ProjectPath,
    responses: { 200: { description: 'The loaded automations and the problems of those that did not load', schema: AutomationsResponse } },
    errors: [503],
  },
  {
    method: 'get',
    path: '/v1/automations/{projectId}/runs',
    operationId: 'listAutomationRuns',
    summary: 'List automation runs',
    description: 'Newest first, with the trigger (push range and repository, schedule, manual, feedback with its page), status, job and pull request.',
    tag: 'Automations',
    auth: 'read',
    pathParams: ProjectPath,
    query: ListRunsQuery,
    responses: { 200: { description: 'A page of runs', schema: AutomationRunsResponse } },
    errors: [400, 503],
  },
];
