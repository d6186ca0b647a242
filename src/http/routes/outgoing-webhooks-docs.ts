import { z } from 'zod';
import type { OperationDoc, WebhookDoc } from '../openapi/operation-doc.js';
import { EVENT_TYPES, PING } from '../../notifications/event-types.js';
import {
  CreatedSubscriptionResponse,
  CreateSubscriptionRequest,
  DeliveriesQuery,
  DeliveriesResponse,
  DeliveryPath,
  EVENT_PAYLOADS,
  PingResponse,
  RotatedSecretResponse,
  SubscriptionListResponse,
  SubscriptionPath,
  SubscriptionResponse,
  UpdateSubscriptionRequest,
} from './outgoing-webhooks-schemas.js';

const ProjectPath = z.object({ projectId: z.string().describe('The project id (`scribe project list`).') });
const json = (schema: z.ZodType) => [{ contentType: 'application/json', schema }];
const tag = 'Outgoing webhooks';
const URL_RULES =
  'The URL must be https (http only with `SCRIBE_WEBHOOKS_ALLOW_HTTP=true`) and must not resolve to a private, loopback, link-local or metadata address unless its host is in `SCRIBE_WEBHOOKS_ALLOWED_HOSTS`; 400 names the problem. 409 for a URL the project already subscribes, or past 20 subscriptions.';

/** The outgoing webhook operations, described with the schemas the routes validate with. */
export const outgoingWebhookOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/v1/webhooks/{projectId}',
    operationId: 'createWebhook',
    summary: 'Subscribe a URL to events',
    description: `Answers the subscription with its signing secret, shown this once. ${URL_RULES}`,
    tag,
    auth: 'write',
    pathParams: ProjectPath,
    body: json(CreateSubscriptionRequest),
    responses: { 201: { description: 'The subscription and its secret', schema: CreatedSubscriptionResponse } },
    errors: [409],
  },
  {
    method: 'get',
    path: '/v1/webhooks/{projectId}',
    operationId: 'listWebhooks',
    summary: 'List subscriptions',
    description:
      'Without secrets; a subscription Scribe turned off after 5 days of failures says so in `disabledReason`.',
    tag,
    auth: 'read',
    pathParams: ProjectPath,
    responses: { 200: { description: 'The subscriptions', schema: SubscriptionListResponse } },
  },
  {
    method: 'get',
    path: '/v1/webhooks/{projectId}/{id}',
    operationId: 'getWebhook',
    summary: 'Get a subscription',
    tag,
    auth: 'read',
    pathParams: SubscriptionPath,
    responses: { 200: { description: 'The subscription', schema: SubscriptionResponse } },
  },
  {
    method: 'patch',
    path: '/v1/webhooks/{projectId}/{id}',
    operationId: 'updateWebhook',
    summary: 'Change a subscription',
    description: `Its URL, events or description, or turn it off and on. ${URL_RULES}`,
    tag,
    auth: 'write',
    pathParams: SubscriptionPath,
    body: json(UpdateSubscriptionRequest),
    responses: { 200: { description: 'The changed subscription', schema: SubscriptionResponse } },
    errors: [409],
  },
  {
    method: 'delete',
    path: '/v1/webhooks/{projectId}/{id}',
    operationId: 'deleteWebhook',
    summary: 'Remove a subscription',
    description: 'Its pending deliveries are dropped with it.',
    tag,
    auth: 'write',
    pathParams: SubscriptionPath,
    responses: { 204: { description: 'Removed' } },
  },
  {
    method: 'post',
    path: '/v1/webhooks/{projectId}/{id}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate the signing secret',
    description:
      'The old secret keeps signing beside the new one for 24 hours: `webhook-signature` then carries two `v1,` signatures, so a receiver may switch at any time in between.',
    tag,
    auth: 'write',
    pathParams: SubscriptionPath,
    responses: { 200: { description: 'The new secret', schema: RotatedSecretResponse } },
  },
  {
    method: 'post',
    path: '/v1/webhooks/{projectId}/{id}/test',
    operationId: 'pingWebhook',
    summary: 'Send a ping',
    description: 'Queues a `ping` delivery now; its result shows in the deliveries. 409 when the subscription is off.',
    tag,
    auth: 'write',
    pathParams: SubscriptionPath,
    responses: { 202: { description: 'The ping is queued', schema: PingResponse } },
    errors: [409],
  },
  {
    method: 'get',
    path: '/v1/webhooks/{projectId}/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'List deliveries and their tries',
    description:
      'Newest first: each delivery with its status and every try (response status, duration, the first 1 KB of the answer, or the error).',
    tag,
    auth: 'read',
    pathParams: SubscriptionPath,
    query: DeliveriesQuery,
    responses: { 200: { description: 'A page of deliveries', schema: DeliveriesResponse } },
  },
  {
    method: 'post',
    path: '/v1/webhooks/{projectId}/{id}/deliveries/{deliveryId}/redeliver',
    operationId: 'redeliverWebhook',
    summary: 'Send a delivery again',
    description: 'Same webhook-id, a fresh 24-hour retry window. 409 while the delivery is still being tried.',
    tag,
    auth: 'write',
    pathParams: DeliveryPath,
    responses: { 202: { description: 'Queued again', schema: PingResponse } },
    errors: [409],
  },
];

const SIGNED =
  'Signed as Standard Webhooks: `webhook-id` (the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`; two, space-separated, for 24 hours after a rotation). Any 2xx within 10 s acknowledges; timeouts, connection errors, 408, 429 (after `Retry-After`) and 5xx are retried with backoff for 24 hours; other answers end the delivery as failed. Delivered at least once; order is not promised.';

/** Every event's body, for the document's `webhooks`. */
export const outgoingWebhookPayloads: WebhookDoc[] = [
  ...Object.entries(EVENT_TYPES).map(([name, e]) => ({
    name,
    summary: e.description,
    description: SIGNED,
    schema: EVENT_PAYLOADS[name as keyof typeof EVENT_TYPES],
  })),
  { name: PING, summary: 'Sent by `POST …/test` only.', description: SIGNED, schema: EVENT_PAYLOADS[PING] },
];
