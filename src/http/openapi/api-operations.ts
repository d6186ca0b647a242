import type { OperationDoc } from './operation-doc.js';
import { serviceOperations } from './service-operations.js';
import { agentJobOperations } from '../routes/agent-jobs-docs.js';
import { analyticsOperations } from '../routes/analytics-docs.js';
import { analyticsFeedbackOperations } from '../routes/analytics-feedback-docs.js';
import { analyticsAiOperations } from '../routes/analytics-ai-docs.js';
import { automationOperations } from '../routes/automations-docs.js';
import { problemsOperations } from '../routes/problems-docs.js';
import { outcomesOperations } from '../routes/outcomes-docs.js';
import { mcpOperations } from '../routes/mcp-docs.js';
import { analyticsRobotsOperations } from '../routes/analytics-robots.js';
import { analyticsCoverageOperations } from '../routes/analytics-coverage.js';
import { outgoingWebhookOperations, outgoingWebhookPayloads } from '../routes/outgoing-webhooks-docs.js';
import { buildOpenApi } from './build-openapi.js';

/** Every operation of the API, in the order the reference shows them. */
export const apiOperations: OperationDoc[] = [
  ...agentJobOperations,
  ...automationOperations,
  ...outgoingWebhookOperations,
  ...analyticsOperations,
  ...analyticsAiOperations,
  ...analyticsRobotsOperations,
  ...analyticsCoverageOperations,
  ...analyticsFeedbackOperations,
  ...problemsOperations,
  ...outcomesOperations,
  ...mcpOperations,
  ...serviceOperations,
];

/** The API's OpenAPI document: served at `GET /openapi.json` and written to `docs/openapi.json`, the same object. */
export function apiDocument(version: string): ReturnType<typeof buildOpenApi> {
  return buildOpenApi({ operations: apiOperations, version, webhooks: outgoingWebhookPayloads });
}
