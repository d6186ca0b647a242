import { z } from 'zod';
import { ALL_EVENTS, EVENT_TYPES, PAYLOAD_VERSION, PING, type EventType } from '../../notifications/event-types.js';
import { JobResponse } from './agent-jobs-schemas.js';
import { AutomationRunResponse } from './automations-schemas.js';
import { OutcomeResponse } from './outcomes-schemas.js';
import { PROBLEM_KINDS, PROBLEM_STATUSES } from '../../problems/problem-kinds.js';
import { wholeNumber } from './paging-schemas.js';

const EVENT_NAMES = Object.keys(EVENT_TYPES);

export const SubscriptionPath = z.object({
  projectId: z.string().describe('The project id (`scribe project list`).'),
  id: z.string().describe('The subscription id (`whk_…`).'),
});

const Events = z
  .array(z.string().max(100))
  .min(1, 'events: name at least one event')
  .max(50)
  .describe(
    `Event types to receive, or \`"${ALL_EVENTS}"\` for all (those added later included): ${EVENT_NAMES.join(', ')}.`,
  );

export const CreateSubscriptionRequest = z.strictObject({
  url: z.string().max(2000).describe('https URL the events are POSTed to.'),
  events: Events,
  description: z.string().max(500).optional(),
});

export const UpdateSubscriptionRequest = z
  .strictObject({
    url: z.string().max(2000).optional(),
    events: Events.optional(),
    description: z.string().max(500).nullable().optional(),
    enabled: z.boolean().optional().describe('false stops deliveries; true resumes them and clears a failing streak.'),
  })
  .refine((v) => Object.keys(v).length > 0, 'name at least one of url, events, description, enabled');

export const SubscriptionResponse = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  enabled: z.boolean(),
  disabledReason: z.string().nullable().describe('Why Scribe turned the subscription off (5 days of failures).'),
  failingSince: z.string().nullable().describe('Since when every delivery failed, with no success since.'),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const CreatedSubscriptionResponse = SubscriptionResponse.extend({
  secret: z.string().describe('`whsec_` + base64: the signing secret, shown this once.'),
});

export const SubscriptionListResponse = z.object({ subscriptions: z.array(SubscriptionResponse) });

export const RotatedSecretResponse = z.object({
  subscription: SubscriptionResponse,
  secret: z.string().describe('The new signing secret, shown this once.'),
  previousSecretExpiresAt: z.string().describe('Until then deliveries carry a signature by the old secret as well.'),
});

export const PingResponse = z.object({ deliveryId: z.string() });

export const DeliveriesQuery = z.strictObject({
  limit: wholeNumber('limit', 1, 100).default(20),
  before: z.string().max(100).optional().describe('The last delivery id of the previous page.'),
});

export const DeliveryPath = SubscriptionPath.extend({
  deliveryId: z.string().describe('The delivery id (`msg_…`), its webhook-id.'),
});

export const DeliveriesResponse = z.object({
  deliveries: z.array(
    z.object({
      id: z.string().describe('The webhook-id header of every try.'),
      type: z.string(),
      status: z.enum(['pending', 'delivered', 'failed']),
      attempts: z.number().int(),
      createdAt: z.string(),
      nextAttemptAt: z.string().nullable(),
      endedAt: z.string().nullable(),
      tries: z.array(
        z.object({
          attempt: z.number().int(),
          at: z.string(),
          durationMs: z.number().int(),
          responseStatus: z.number().int().nullable(),
          responseBody: z.string().nullable().describe('The first 1 KB of the answer.'),
          error: z.string().nullable(),
        }),
      ),
    }),
  ),
  hasMore: z.boolean(),
});

/** The review object of `review.completed`. */
export const ReviewPayload = z.object({
  id: z.string(),
  automation: z.string(),
  repository: z.string(),
  number: z.number().int(),
  headSha: z.string(),
  status: z.string(),
  conclusion: z.string().nullable(),
  title: z.string().nullable(),
  pageCount: z.number().int().nullable(),
  checkRunId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** The problem object of `problem.*` events: its stored state (its evidence and counts: the problems listing). */
export const ProblemPayload = z.object({
  id: z.string(),
  kind: z.enum(PROBLEM_KINDS),
  status: z.enum(PROBLEM_STATUSES),
  jobId: z.string().nullable().describe('The agent job working on it (or that fixed it)'),
  reason: z.string().nullable().describe('Why it was dismissed'),
  updatedAt: z.string(),
});

/** The outcome object of `outcome.ready`: the job's `outcome` as GET job shows it, with its pull request. */
export const OutcomePayload = OutcomeResponse.extend({
  jobId: z.string(),
  repository: z.string(),
  number: z.number().int(),
  days: z.number().int().describe('The window that completed: 7, then 28'),
});

const Truncated = z
  .object({ truncated: z.literal(true), id: z.string().optional(), link: z.string().nullable() })
  .describe('Sent instead of an object whose body would pass 256 KB: fetch it from `link`.');

const envelope = (type: string, data: z.ZodType) =>
  z.object({
    type: z.literal(type),
    timestamp: z.string().describe('When the change happened (ISO 8601).'),
    version: z.literal(PAYLOAD_VERSION),
    data: z.union([data, Truncated]),
  });

const JobData = z.object({ job: JobResponse });

/** Each event's body, as the OpenAPI document's `webhooks` shows it. */
export const EVENT_PAYLOADS: Record<EventType | typeof PING, z.ZodType> = {
  'job.created': envelope('job.created', JobData),
  'job.status_changed': envelope(
    'job.status_changed',
    JobData.extend({ previousStatus: z.string(), prLink: z.string().nullable(), summary: z.string().nullable() }),
  ),
  'job.message_added': envelope(
    'job.message_added',
    JobData.extend({ message: z.object({ seq: z.number().int(), prompt: z.string(), createdAt: z.string() }) }),
  ),
  'automation.run_started': envelope('automation.run_started', z.object({ run: AutomationRunResponse })),
  'automation.run_finished': envelope('automation.run_finished', z.object({ run: AutomationRunResponse })),
  'review.completed': envelope('review.completed', z.object({ review: ReviewPayload })),
  'problem.created': envelope('problem.created', z.object({ problem: ProblemPayload })),
  'problem.status_changed': envelope(
    'problem.status_changed',
    z.object({ problem: ProblemPayload, previousStatus: z.enum(PROBLEM_STATUSES) }),
  ),
  'outcome.ready': envelope('outcome.ready', z.object({ outcome: OutcomePayload })),
  [PING]: envelope(PING, z.object({ subscriptionId: z.string() })),
};
