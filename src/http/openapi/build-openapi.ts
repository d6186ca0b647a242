import { z } from 'zod';
import { ErrorResponse, type OperationDoc, type WebhookDoc } from './operation-doc.js';

type JsonSchema = Record<string, unknown>;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON, or a missing or invalid field or parameter (`details` say which).',
  401: 'Missing, malformed, unknown, revoked or expired API key.',
  403: 'The key is not valid for this project, or lacks the scope.',
  404: 'Unknown project, resource or route.',
  409: 'The resource is in a state that does not allow this.',
  413: 'Request body too large.',
  415: 'Request body has an unsupported content type.',
  429: 'Rate limited; retry after `Retry-After` seconds.',
  500: 'Unexpected error; the sentence names the request id (also in `X-Request-Id`).',
  502: 'GitHub failed or could not be reached while answering this request; the sentence says how. Try again later.',
  503: 'A dependency or configuration this request needs is missing; the sentence says what to set.',
  504: 'GitHub did not answer in time while answering this request. Try again later.',
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

function parameters(op: OperationDoc) {
  const params: unknown[] = [];
  for (const [where, shape] of [
    ['path', op.pathParams],
    ['query', op.query],
  ] as const) {
    if (!shape) continue;
    const schema = jsonSchema(shape, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const { description, ...rest } = property;
      params.push({
        name,
        in: where,
        required: where === 'path' || (schema.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  return params;
}

function errorStatuses(op: OperationDoc): number[] {
  const statuses = new Set<number>(op.errors ?? []);
  if (op.query || op.body?.some((b) => b.schema)) statuses.add(400);
  if (op.auth) for (const s of [401, 403]) statuses.add(s);
  if (op.pathParams) statuses.add(404);
  if (op.body?.length) for (const s of [413, 415]) statuses.add(s);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

/** Builds the OpenAPI 3.1 document of the whole API from the operation descriptions. */
export function buildOpenApi(params: {
  operations: OperationDoc[];
  version: string;
  serverUrl?: string;
  /** outgoing webhook events, as OpenAPI 3.1 `webhooks` */
  webhooks?: WebhookDoc[];
}) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of params.operations) {
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(op.responses)) {
      responses[status] = {
        description: response.description,
        ...(response.headers
          ? {
              headers: Object.fromEntries(
                Object.entries(response.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }]),
              ),
            }
          : {}),
        ...(response.schema
          ? {
              content: {
                [response.contentType ?? 'application/json']: { schema: jsonSchema(response.schema, 'output') },
              },
            }
          : response.contentType
            ? { content: { [response.contentType]: { schema: { type: 'string' } } } }
            : {}),
      };
    }
    for (const status of errorStatuses(op)) {
      responses[String(status)] ??= {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        ...(status === 429
          ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } }
          : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      ...(op.auth ? { security: [{ bearerAuth: [] }], 'x-scribe-scope': op.auth } : { security: [] }),
      parameters: parameters(op),
      ...(op.body?.length
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                op.body.map((b) => [
                  b.contentType,
                  {
                    schema: {
                      ...(b.schema ? jsonSchema(b.schema, 'input') : { type: 'string' }),
                      ...(b.description ? { description: b.description } : {}),
                    },
                  },
                ]),
              ),
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Scribe API',
      version: params.version,
      description:
        'Documentation agent jobs (v2, compatible) and visitor analytics (v1, compatible), plus Scribe additions. Errors are always JSON `{"error", "details"?}`; every response carries `X-Request-Id`.',
    },
    ...(params.serverUrl ? { servers: [{ url: params.serverUrl }] } : {}),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key `scribe_sk_…` created with `scribe key create`; `read` scope for GET, `write` for everything.',
        },
      },
      schemas: { Error: jsonSchema(ErrorResponse, 'output') },
    },
    paths,
    ...(params.webhooks?.length ? { webhooks: webhooksOf(params.webhooks) } : {}),
  };
}

function webhooksOf(docs: WebhookDoc[]) {
  return Object.fromEntries(
    docs.map((doc) => [
      doc.name,
      {
        post: {
          operationId: `webhook:${doc.name}`,
          summary: doc.summary,
          description: doc.description,
          tags: ['Outgoing webhooks'],
          parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
            name,
            in: 'header',
            required: true,
            schema: { type: 'string' },
          })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(doc.schema, 'output') } },
          },
          responses: {
            '2XX': { description: 'Acknowledged; any other answer is retried or ends the delivery as failed.' },
          },
        },
      },
    ]),
  );
}
