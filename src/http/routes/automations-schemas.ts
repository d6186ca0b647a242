import { z } from 'zod';
import { offsetPaging } from './paging-schemas.js';

const RUN_STATUSES = [
  'running',
  'pull_request_opened',
  'pull_request_updated',
  'no_changes',
  'failed',
  'skipped',
] as const;

export const ListRunsQuery = z.object({
  automation: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, 'automation must be an automation id ([a-z0-9-]{1,64})')
    .optional(),
  ...offsetPaging,
});

export const TriggerResponse = z.object({
  schemaId: z.string().describe('The automation id.'),
  instanceId: z.string().describe('The automation run id.'),
  jobId: z
    .string()
    .nullable()
    .describe(
      'The agent job carrying out the run; null when the run was skipped (see `GET /v1/automations/{projectId}/runs`).',
    ),
});

export const AutomationsResponse = z.object({
  configSha: z
    .string()
    .nullable()
    .describe('The docs commit `.scribe/automations.yml` was read at; null when the file is absent.'),
  loadedAt: z.string(),
  automations: z.array(
    z.looseObject({
      id: z.string(),
      on: z
        .looseObject({ kind: z.enum(['push', 'schedule', 'feedback', 'pull_request', 'problems']) })
        .describe(
          '`push` and `pull_request`: `repository`, `branches` (null: the default branch), `paths` (null: every path); `schedule`: `cron` and `timezone` (an IANA name; absent means UTC); `feedback`: `thumbsDown` (null: none), `comment`, `pages` (null: every page); `problems`: `problemKind`, `minReaders`.',
        ),
      prompt: z.string(),
      draft: z.boolean(),
      review: z
        .object({ comment: z.boolean(), block: z.boolean() })
        .optional()
        .describe(
          'On `pull_request` automations only: `comment` adds one pull request comment edited in place, `block` concludes the `Scribe docs` check `failure` instead of `neutral` when pages are found.',
        ),
      outcome: z
        .object({ comment: z.boolean() })
        .optional()
        .describe(
          "`outcome:` as configured (absent: the defaults). `comment: false`: no outcome comment on this automation's merged docs pull requests.",
        ),
    }),
  ),
  problems: z
    .array(z.object({ automation: z.string().nullable(), message: z.string() }))
    .describe('Automations that did not load, and why.'),
});

export const AutomationRunResponse = z.object({
  id: z.string(),
  automation: z.string(),
  trigger: z.object({
    kind: z.enum(['push', 'schedule', 'manual', 'feedback', 'pull_request', 'problems']),
    repository: z.string().nullable().describe('The source repository of a push or of a `pull_request` run.'),
    before: z.string().nullable(),
    after: z.string().nullable(),
    number: z
      .number()
      .int()
      .nullable()
      .describe('The source pull request of a `pull_request` run (a docs draft, or a follow-up on it).'),
    headSha: z.string().nullable().describe("The source pull request's head commit the `pull_request` run read."),
    page: z.string().nullable().describe('The docs page whose reader feedback started a `feedback` run.'),
  }),
  status: z.enum(RUN_STATUSES),
  reason: z.string().nullable().describe('Why the run was skipped or failed.'),
  jobId: z.string().nullable(),
  prLink: z.string().nullable(),
  summary: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const AutomationRunsResponse = z.object({ runs: z.array(AutomationRunResponse), total: z.number().int() });
