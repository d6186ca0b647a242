import { z } from 'zod';
import type { OperationDoc } from './operation-doc.js';

export const HealthResponse = z.object({ status: z.literal('ok') });
export const ReadyResponse = z.object({
  status: z.literal('ok'),
  database: z.enum(['sqlite', 'postgresql']),
  /** with CLICKHOUSE_URL: page views waiting in the outbox for ClickHouse */
  clickhouse: z.object({ outbox: z.number().int() }).optional(),
});
export const NotReadyResponse = z.object({
  status: z.literal('unavailable'),
  error: z.string(),
  pending: z.array(z.string()).optional(),
});

export const serviceOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    summary: 'Liveness: the process answers',
    tag: 'Operations',
    responses: { 200: { description: 'Alive', schema: HealthResponse } },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    summary: 'Readiness: the database (and ClickHouse, when configured) answers and every migration is applied',
    tag: 'Operations',
    responses: {
      200: { description: 'Ready', schema: ReadyResponse },
      503: { description: 'Database or ClickHouse unreachable, or migrations pending', schema: NotReadyResponse },
    },
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    description:
      'HTTP latency by route and status, jobs by status, job duration, model tokens by model, ingested events by class, rejected events by reason, worker queue depth and lease losses, page views waiting for ClickHouse, plus process metrics.',
    tag: 'Operations',
    responses: { 200: { description: 'Prometheus text exposition format', contentType: 'text/plain' } },
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openapi',
    summary: 'This OpenAPI 3.1 document',
    tag: 'Operations',
    responses: { 200: { description: 'The document', schema: z.record(z.string(), z.unknown()) } },
  },
];
