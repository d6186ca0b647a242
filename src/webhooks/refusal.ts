import { Conflict, RateLimited } from '../errors.js';
import { JobsNotConfigured } from '../jobs/job-requests.js';

/**
 * How to answer a comment whose request was refused for a reason its author can act on or should know of (jobs
 * not configured, rate limit, archived job), and the delivery's outcome; null for any other error, which fails
 * the delivery instead.
 */
export function refusal(author: string, err: unknown): { reply: string; outcome: string } | null {
  if (err instanceof JobsNotConfigured) {
    return {
      reply: `@${author} Scribe cannot run jobs yet: its operator needs to ${err.missing.join(' and ')}.`,
      outcome: 'refused: agent jobs are not configured',
    };
  }
  if (err instanceof RateLimited || err instanceof Conflict)
    return { reply: `@${author} ${err.message}.`, outcome: `refused: ${err.message}` };
  return null;
}
