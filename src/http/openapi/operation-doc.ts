import { z } from 'zod';

/** The JSON error body every route answers errors with (see src/http/error-handler.ts). */
export const ErrorResponse = z.object({
  error: z.string().describe('A sentence saying what went wrong.'),
  details: z
    .array(z.object({ message: z.string() }))
    .optional()
    .describe('Which fields or parameters were wrong, one entry each.'),
});

export interface ResponseDoc {
  description: string;
  /** JSON body schema; omit for a non-JSON body described by `contentType` */
  schema?: z.ZodType;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface BodyDoc {
  contentType: string;
  /** JSON body schema (the one the route validates with); omit for text bodies */
  schema?: z.ZodType;
  description?: string;
}

/**
 * One API operation, described by the same zod schemas its route validates input with and builds output from.
 * The OpenAPI document is generated from these (build-openapi.ts); tests validate real responses against it.
 */
export interface OperationDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form, e.g. /v2/agent/{projectId}/job/{id} */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** bearer API key scope the route needs; absent for public routes */
  auth?: 'read' | 'write';
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  body?: BodyDoc[];
  responses: Record<number, ResponseDoc>;
  /** error statuses this route can answer beyond the ones implied by auth, params and body */
  errors?: number[];
}

/** One outgoing webhook event, for the document's `webhooks`: its body schema and what it reports. */
export interface WebhookDoc {
  name: string;
  summary: string;
  description: string;
  schema: z.ZodType;
}
