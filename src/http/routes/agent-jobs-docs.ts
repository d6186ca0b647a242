import { JobWithOutcomeResponse } from './outcomes-schemas.js';
import { z } from 'zod';
import type { OperationDoc } from '../openapi/operation-doc.js';
import {
  CreateJobRequest,
  JobEventsResponse,
  JobListResponse,
  JobResponse,
  ListJobsQuery,
  MessageRequest,
} from './agent-jobs-schemas.js';

const ProjectPath = z.object({ projectId: z.string().describe('The project id (`scribe project list`).') });
const JobPath = ProjectPath.extend({ id: z.string().describe('The job id.') });
const EventsQuery = z.object({
  after: z
    .string()
    .regex(/^\d+$/)
    .optional()
    .describe(
      'Only events after this event id (also `Last-Event-ID`): an integer from 0 to 9223372036854775807; a larger one is a 400.',
    ),
});

/** The agent-job operations, described with the schemas the routes validate with. */
export const agentJobOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/v2/agent/{projectId}/job',
    operationId: 'createAgentJob',
    summary: 'Create an agent job',
    description:
      "Queues a background job: the agent edits the project's docs repository and, if any file changed, opens a pull request (`prLink`). Poll the job until `completed`, `archived` or `failed`. 503 when the GitHub App or the model is not configured.",
    tag: 'Agent jobs',
    auth: 'write',
    pathParams: ProjectPath,
    body: [{ contentType: 'application/json', schema: CreateJobRequest }],
    responses: { 201: { description: 'The new job', schema: JobResponse } },
    errors: [429, 503],
  },
  {
    method: 'get',
    path: '/v2/agent/{projectId}/job/{id}',
    operationId: 'getAgentJob',
    summary: 'Get an agent job',
    description:
      '`outcome` (a Scribe addition) is null until the pull request merges; then it measures the pages it changed before and after, as `GET /v1/analytics/{projectId}/outcomes` does.',
    tag: 'Agent jobs',
    auth: 'read',
    pathParams: JobPath,
    responses: { 200: { description: 'The job', schema: JobWithOutcomeResponse } },
  },
  {
    method: 'post',
    path: '/v2/agent/{projectId}/job/{id}/message',
    operationId: 'sendAgentJobMessage',
    summary: 'Send a follow-up instruction',
    description:
      'Works on the same branch and pull request: queued if the job is `active`, re-activates a `completed` or `failed` job, 409 for an `archived` one.',
    tag: 'Agent jobs',
    auth: 'write',
    pathParams: JobPath,
    body: [{ contentType: 'application/json', schema: MessageRequest }],
    responses: { 200: { description: 'The job', schema: JobResponse } },
    errors: [409, 429, 503],
  },
  {
    method: 'post',
    path: '/v2/agent/{projectId}/job/{id}/archive',
    operationId: 'archiveAgentJob',
    summary: 'Archive a job (stops a running agent; idempotent)',
    tag: 'Agent jobs',
    auth: 'write',
    pathParams: JobPath,
    responses: { 200: { description: 'The archived job', schema: JobResponse } },
  },
  {
    method: 'get',
    path: '/v2/agent/{projectId}/jobs',
    operationId: 'listAgentJobs',
    summary: 'List jobs, newest first',
    tag: 'Agent jobs',
    auth: 'read',
    pathParams: ProjectPath,
    query: ListJobsQuery,
    responses: { 200: { description: 'One page of jobs', schema: JobListResponse } },
  },
  {
    method: 'get',
    path: '/v2/agent/{projectId}/job/{id}/events',
    operationId: 'getAgentJobEvents',
    summary: "The job's step log",
    description:
      'Model turns, tool calls with their paths, checks, errors and token usage. JSON by default; with `Accept: text/event-stream` a server-sent event stream that replays the log and follows it live until the job leaves `active`, then sends an `end` event.',
    tag: 'Agent jobs',
    auth: 'read',
    pathParams: JobPath,
    query: EventsQuery,
    responses: { 200: { description: 'Events (JSON) or an event stream', schema: JobEventsResponse } },
  },
];
