import { normalizeIp } from '../ingest/client-ip.js';
import type { VisitorHasher } from '../ingest/visitor-hash.js';
import type { LimitKeys } from './store/visitor-limit.js';

/** Who submitted: an address and user agent (hashed, the address then dropped), or the site's own visitor id. */
export interface Submitter {
  ip?: string;
  userAgent?: string;
  visitorId?: string;
}

/** The submitter as kept: its visitor hash (null when none is given, as a trusted server may), and its limit's keys. */
export interface SubmitterHashes {
  visitorHash: string | null;
  limitKeys: LimitKeys;
}

/** A submitter without an address or visitor id (a trusted server's item): no visitor, no limit. */
export const NOBODY: SubmitterHashes = { visitorHash: null, limitKeys: { addressHash: null, visitorIdHash: null } };

/**
 * The submitter's keyed hashes, or why they cannot be made. The visitor is the given visitor id, else the address and
 * user agent, as for page views. Its limit counts by the address alone (a user agent is the submitter's to choose,
 * so another one is no new allowance) and by the given visitor id.
 */
export function hashSubmitter(params: {
  hasher: VisitorHasher;
  projectId: string;
  submitter: Submitter;
  now: number;
}): SubmitterHashes | { error: string } {
  const { hasher, projectId, submitter, now } = params;
  const ip = submitter.ip === undefined ? undefined : normalizeIp(submitter.ip);
  if (submitter.ip !== undefined && ip === undefined) return { error: 'ip: is not a valid IP address' };
  const given =
    submitter.visitorId === undefined
      ? null
      : hasher(projectId, { type: 'given', visitorId: submitter.visitorId }, now);
  const visitorHash =
    given ??
    (ip === undefined ? null : hasher(projectId, { type: 'human', ip, userAgent: submitter.userAgent ?? '' }, now));
  const addressHash = ip === undefined ? null : hasher(projectId, { type: 'address', ip }, now);
  return { visitorHash, limitKeys: { addressHash, visitorIdHash: given } };
}
