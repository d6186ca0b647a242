import { classifyUserAgent } from './classify-user-agent.js';
import { assistantFromReferrer, normalizeReferrer } from './classify-referrer.js';
import { normalizeIp } from './client-ip.js';
import { pagePath } from './page-path.js';
import { KIND } from './day-sets.js';
import type { NewEvent } from './store.js';
import type { VisitorHasher, VisitorIdentity } from './visitor-hash.js';

/** A page view from any source, before classification. The IP is used for the hash and then dropped. */
export interface PageView {
  timestamp: number;
  /** a path or a full URL */
  url: string;
  userAgent: string | undefined;
  ip?: string;
  visitorId?: string;
  referrer?: string | null;
  /** idempotency key */
  key?: string;
}

/** Classifies a page view and replaces who it came from by a keyed hash; returns a reason when it is not stored. */
export function prepareEvent(params: { projectId: string; view: PageView; hasher: VisitorHasher }): NewEvent | { error: string } {
  const { projectId, view, hasher } = params;
  const path = pagePath(view.url);
  if (path === undefined) return { error: 'not a page: a static asset or not a path' };
  let ip: string | undefined;
  if (view.ip !== undefined) {
    ip = normalizeIp(view.ip);
    if (!ip) return { error: 'ip is not a valid IP address' };
  }
  const classification = classifyUserAgent(view.userAgent);
  let identity: VisitorIdentity | undefined;
  if (view.visitorId !== undefined) identity = { type: 'given', visitorId: view.visitorId };
  else if (ip && classification.class === 'human') identity = { type: 'human', ip, userAgent: view.userAgent ?? '' };
  else if (ip && classification.class === 'ai') identity = { type: 'ai', ip, agent: classification.agent };
  if (classification.class !== 'bot' && !identity) return { error: 'no client address or visitorId to identify the visitor' };
  return {
    ts: Math.floor(view.timestamp),
    path,
    visitorHash: classification.class === 'bot' ? null : hasher(projectId, identity!, view.timestamp),
    kind: KIND[classification.class],
    // a human sent by an AI assistant stays human; the assistant is noted beside the kept referrer
    agent: classification.class === 'human' ? referredBy(view.referrer) : classification.agent,
    referrer: normalizeReferrer(view.referrer),
    key: view.key ?? null,
  };
}

function referredBy(referrer: string | null | undefined): string | null {
  const assistant = assistantFromReferrer(referrer);
  return assistant ? `via ${assistant}` : null;
}
