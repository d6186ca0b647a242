import type { SendResult } from './send-message.js';

/** Retries stop this long after the first try (or a redelivery), like the Standard Webhooks schedule's ~day. */
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;
/** A subscription whose deliveries failed this long with no success between is turned off. */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60_000;

/**
 * The wait after the n-th failed try: 5 s × 4^(n-1) (5 s, 20 s, 80 s, 5 min, 21 min, 85 min) capped at 5 hours, with
 * ±20 % jitter so a receiver coming back is not hit by every queued delivery at the same instant.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(5_000 * 4 ** Math.max(0, attempt - 1), 5 * 60 * 60_000);
  return Math.round(base * (0.8 + 0.4 * random()));
}

export type Verdict =
  | { ends: 'delivered' }
  | { ends: 'failed'; why: string }
  | { retryInMs: number | null; why: string };

/**
 * What an answer means: 2xx ends delivered; a timeout, a connection error, 408, 429 (after its Retry-After, when
 * given) and 5xx are worth another try; anything else (a redirect, another 4xx) ends failed — asking again gets the
 * same refusal. `retryInMs` null means "the schedule's wait".
 */
export function judge(result: SendResult, now: Date): Verdict {
  if ('error' in result) return { retryInMs: null, why: result.error };
  const { status } = result;
  if (status >= 200 && status < 300) return { ends: 'delivered' };
  if (status === 408 || status >= 500) return { retryInMs: null, why: `answered ${status}` };
  if (status === 429) return { retryInMs: retryAfterMs(result.retryAfter, now), why: 'answered 429' };
  return {
    ends: 'failed',
    why: `answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
  };
}

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
