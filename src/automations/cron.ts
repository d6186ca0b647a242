import { Cron } from 'croner';

/**
 * A schedule's cron expression read by croner: five fields (minute hour day-of-month month day-of-week), nicknames
 * (`@daily`, `@weekly`, …), `L`, `W` and `#`, in an IANA time zone (UTC unless the config names one). When both day
 * fields are restricted a day matching either is due, as in every common cron; `5/15` still means "from 5 in steps
 * of 15", which configs written for the earlier reader use.
 */
export class CronError extends Error {}

export function parseCron(expression: unknown, timezone = 'UTC'): Cron {
  if (typeof expression !== 'string') throw new CronError('a schedule must be a string of five fields or a @nickname');
  const problem = timezoneProblem(timezone);
  if (problem) throw new CronError(problem);
  try {
    return new Cron(expression.trim(), { mode: '5-part', sloppyRanges: true, timezone });
  } catch (err) {
    const reason = (err as Error).message.replace(/^CronPattern:\s*/, '');
    throw new CronError(reason.charAt(0).toLowerCase() + reason.slice(1));
  }
}

/** Why a time zone name is refused, or null: croner would only fail on it at the first slot it computes. */
export function timezoneProblem(timezone: unknown): string | null {
  if (typeof timezone !== 'string' || !timezone.trim()) return 'timezone must be an IANA name such as "Europe/Paris"';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return null;
  } catch {
    return `timezone "${timezone}" is not an IANA time zone name (such as "Europe/Paris" or "UTC")`;
  }
}

/** The latest slot at or before `at` and after `notBefore`, or null. */
export function latestSlot(cron: Cron, at: Date, notBefore: Date): Date | null {
  // previousRuns counts a slot earlier in the same second as `at`; a slot exactly at `at` is one second earlier than
  // `at + 1s`, so asking from there includes it
  const [slot] = cron.previousRuns(1, new Date(Math.floor(at.getTime() / 1000) * 1000 + 1000));
  return slot && slot.getTime() > notBefore.getTime() ? slot : null;
}
