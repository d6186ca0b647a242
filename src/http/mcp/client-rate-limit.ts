import { LRUCache } from 'lru-cache';

/**
 * A token bucket per client address: `perMinute` requests a minute, refilled evenly, bursts up to the same. The
 * busiest 100,000 addresses are remembered; one forgotten starts again with a full bucket.
 */
export class ClientRateLimit {
  private readonly buckets = new LRUCache<string, { tokens: number; at: number }>({ max: 100_000 });

  constructor(private readonly params: { perMinute: number; now: () => number }) {}

  /** Takes a token for `client`; the seconds to wait when there is none. */
  take(client: string): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const { perMinute, now } = this.params;
    const t = now();
    const bucket = this.buckets.get(client) ?? { tokens: perMinute, at: t };
    bucket.tokens = Math.min(perMinute, bucket.tokens + ((t - bucket.at) * perMinute) / 60_000);
    bucket.at = t;
    this.buckets.set(client, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.ceil(((1 - bucket.tokens) * 60) / perMinute) };
  }
}
