/**
 * Every event a subscription may ask for, in one table: its name, what it reports, and which object its payload
 * carries (rendered as the API shows that object; see the HTTP layer's presenter). A new event is one line here plus
 * a `recordEvent` call in the transaction of the change it reports.
 */
export const EVENT_TYPES = {
  'job.created': {
    subject: 'job',
    description: 'An agent job was created (from the API, a comment or an automation).',
  },
  'job.status_changed': {
    subject: 'job',
    description:
      'A job moved to another status (completed, failed, archived, or active again); with its prLink and summary.',
  },
  'job.message_added': { subject: 'job', description: 'A follow-up instruction was added to a job.' },
  'automation.run_started': { subject: 'run', description: 'An automation run started (or was skipped over its cap).' },
  'automation.run_finished': {
    subject: 'run',
    description: 'An automation run ended: pull request opened or updated, no changes, failed or skipped.',
  },
  'review.completed': { subject: 'review', description: 'The docs review of a source pull request commit concluded.' },
  'problem.created': {
    subject: 'problem',
    description:
      'A reader problem got its first stored state (dismissed, or taken by a fix or an automation); problems with no state are open and announced by none.',
  },
  'problem.status_changed': {
    subject: 'problem',
    description:
      'A problem moved to another status: dismissed or opened again, in_progress under a fix, fixed or open again when its pull request closed, verified or regressed by its outcome.',
  },
  'outcome.ready': {
    subject: 'outcome',
    description:
      "A merged docs pull request's outcome window completed (7 days, then 28): its verdict and the pages measured, as GET job's `outcome`.",
  },
} as const satisfies Record<string, { subject: string; description: string }>;

export type EventType = keyof typeof EVENT_TYPES;

/** A subscription's `events` entry: an event type, or `*` for every event (those added later included). */
export const ALL_EVENTS = '*';

/** A `ping` is sent by `POST …/test` only; no subscription asks for it and every one receives it. */
export const PING = 'ping';

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_TYPES, value);
}

/** Payload format version, in every body: bumped only for a change a receiver must adapt to. */
export const PAYLOAD_VERSION = 1;
