import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import type { AnalyticsConfig } from '../../config.js';
import { DAY_MS } from '../../calendar.js';

export type VisitorIdentity =
  | { type: 'human'; ip: string; userAgent: string }
  | { type: 'ai'; ip: string; agent: string }
  /** a caller-supplied visitor id (server-side events): the same id is one visitor whether seen as human or AI */
  | { type: 'given'; visitorId: string }
  /** an address alone: not a visitor, but what a per-visitor limit counts by, so a new user agent is no new allowance */
  | { type: 'address'; ip: string };

/**
 * Pseudonymous visitor ids: HMAC-SHA256 keyed by the server secret — or, with rotation, by a key derived from it
 * for the event's day or week — over the project and the identity. Only this hash is stored; it cannot be
 * reversed to an address without the secret, and once a rotated key is forgotten not even with it.
 */
export function createVisitorHasher(params: { secret: string; rotation: AnalyticsConfig['saltRotation'] }) {
  const { secret, rotation } = params;
  // key objects, made once: handing HMAC a string or buffer imports it as a key on every call (a tenth of the
  // hashing's cost, which is a tenth of the ingest's)
  const fixedKey = createSecretKey(Buffer.from(secret, 'utf8'));
  const keys = new Map<number, KeyObject>();
  const keyFor = (timestampMs: number): KeyObject => {
    if (rotation === 'never') return fixedKey;
    const day = Math.floor(timestampMs / DAY_MS);
    // 1970-01-01 was a Thursday: +3 makes weeks start on Monday
    const period = rotation === 'daily' ? day : Math.floor((day + 3) / 7);
    let key = keys.get(period);
    if (!key) {
      if (keys.size > 64) keys.clear();
      key = createSecretKey(createHmac('sha256', secret).update(`visitor-key:${rotation}:${period}`).digest());
      keys.set(period, key);
    }
    return key;
  };
  return (projectId: string, identity: VisitorIdentity, timestampMs: number): string => {
    const text =
      identity.type === 'human'
        ? `h\0${identity.ip}\0${identity.userAgent}`
        : identity.type === 'ai'
          ? `a\0${identity.ip}\0${identity.agent}`
          : identity.type === 'given'
            ? `v\0${identity.visitorId}`
            : `n\0${identity.ip}`;
    return createHmac('sha256', keyFor(timestampMs)).update(`${projectId}\0${text}`).digest('base64url').slice(0, 22);
  };
}

export type VisitorHasher = ReturnType<typeof createVisitorHasher>;
