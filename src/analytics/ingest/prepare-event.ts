import { classifyUserAgent } from './classify-user-agent.js';
import { assistantFromReferrer, assistantFromUtmSource, normalizeReferrer } from './classify-referrer.js';
import { normalizeIp } from './client-ip.js';
import { isRawMarkdown, pagePath } from './page-path.js';
import { DAY_MS, EARLIEST_MS } from '../../calendar.js';
import { KIND } from '../store/day-sets.js';
import { UNVERIFIED_PREFIX, VERIFICATION, VIA_PREFIX, type NewEvent } from '../store/write-events.js';
import type { VisitorHasher, VisitorIdentity } from './visitor-hash.js';
import type { SignatureHeaders } from './verify-signature.js';
import type { AgentCheck, Verification, VerifiedBy } from './verify-agent.js';

export const UNIDENTIFIED_AGENT = 'unidentified agent';

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
  /** Web Bot Auth headers of the request, when the source carries them */
  headers?: SignatureHeaders;
  /** the URL the request was sent to, when not `url` (a page read over MCP): what a signature covers */
  requestUrl?: string;
  /** the agent the source names (an MCP client's name), when its user agent names none */
  agent?: string;
}

/** What the ingest asks of each view: the agent its user agent claims (none for a browser or an unnamed agent). */
export type CheckAgent = (params: { view: PageView; agent: string | undefined; ip: string | undefined }) => AgentCheck;

/**
 * How far ahead of the server's clock a page view may be stamped: log lines come from other machines' clocks and
 * zones. (Server-side events are held to 5 minutes by their route before they get here.)
 */
export const MAX_AHEAD_MS = DAY_MS;

/** Classifies a page view and replaces who it came from by a keyed hash; returns a reason when it is not stored. */
export function prepareEvent(params: {
  projectId: string;
  view: PageView;
  hasher: VisitorHasher;
  now: number;
  /** the outcome of a view's signature and an AI view's addresses (see agent-verifier.ts); none: unverifiable */
  verify?: CheckAgent;
}): NewEvent | { error: string } {
  const { projectId, view, hasher, now, verify } = params;
  // day numbers and visitor-key periods count from 1970; a time far ahead is a wrong clock, not a view
  if (!(view.timestamp >= EARLIEST_MS)) return { error: 'timestamp: must not be before 1970-01-01T00:00:00Z' };
  if (view.timestamp > now + MAX_AHEAD_MS) return { error: 'timestamp: must not be more than a day ahead of now' };
  const path = pagePath(view.url);
  if (path === undefined) return { error: 'not a page: a static asset or not a path' };
  let ip: string | undefined;
  if (view.ip !== undefined) {
    ip = normalizeIp(view.ip);
    if (!ip) return { error: 'ip is not a valid IP address' };
  }
  let classification = readerOf(view);
  const named = classification.class === 'ai' && classification.agent !== UNIDENTIFIED_AGENT;
  const check = verify?.({ view, agent: named ? (classification as { agent: string }).agent : undefined, ip });
  // a signed agent behind a browser's user agent (ChatGPT's agent sends Chrome's) is read as the agent it proved
  if (check?.agent && classification.class !== 'bot') classification = { class: 'ai', agent: check.agent };
  let verification: Verification | undefined;
  if (classification.class === 'ai') verification = check?.verification ?? 'unverifiable';
  let identity: VisitorIdentity | undefined;
  if (view.visitorId !== undefined) identity = { type: 'given', visitorId: view.visitorId };
  else if (ip && classification.class === 'human') identity = { type: 'human', ip, userAgent: view.userAgent ?? '' };
  // an unidentified agent has no name to tell it from others behind one address: its user agent does that instead
  else if (ip && classification.class === 'ai')
    identity = {
      type: 'ai',
      ip,
      agent: classification.agent === UNIDENTIFIED_AGENT ? (view.userAgent ?? '') : classification.agent,
    };
  // An AI user agent from outside its operator's fresh list is spoofed: a bot of its own name, not AI traffic. It
  // keeps the identity it claimed, so the spoofed agents can be counted in visitors (bots count in no day set).
  const spoofed = verification === 'unverified';
  if (spoofed && classification.class === 'ai')
    classification = { class: 'bot', agent: `${UNVERIFIED_PREFIX}${classification.agent}` };
  if (classification.class !== 'bot' && !identity)
    return { error: 'no client address or visitorId to identify the visitor' };
  return {
    ts: Math.floor(view.timestamp),
    path,
    visitorHash: classification.class === 'bot' && !spoofed ? null : hasher(projectId, identity!, view.timestamp),
    kind: KIND[classification.class],
    // a human sent by an AI assistant stays human; the assistant is noted beside the kept referrer
    agent: classification.class === 'human' ? referredBy(view.referrer, view.url) : classification.agent,
    referrer: normalizeReferrer(view.referrer),
    key: view.key ?? null,
    verification: verification && !spoofed ? storedVerification(verification, check?.by) : null,
  };
}

/**
 * The user agent's class — except that raw Markdown (`.md` pages, llms.txt) read by a client that is neither a
 * listed AI agent nor a known bot is AI traffic of an unidentified agent, never a human: browsers render the HTML
 * page, agents fetch the Markdown (as the hosted service counts it). A source that names the agent (an MCP client)
 * has it counted under that name.
 */
function readerOf(view: PageView): Reader {
  const classification = classifyUserAgent(view.userAgent);
  // an MCP client reads for an agent, whatever library its user agent names (node, python-httpx)
  if (classification.class !== 'ai' && view.agent) return { class: 'ai', agent: view.agent };
  if (classification.class === 'human' && isRawMarkdown(view.url)) return { class: 'ai', agent: UNIDENTIFIED_AGENT };
  return classification;
}

/** The stored value of an AI view's outcome (see VERIFICATION): how it was verified, or unverifiable. */
function storedVerification(verification: Verification, by: VerifiedBy | undefined): number {
  if (verification !== 'verified') return VERIFICATION.unverifiable;
  if (by === 'signature') return VERIFICATION.signature;
  return by === 'reverse-dns' ? VERIFICATION.reverseDns : VERIFICATION.verified;
}

/** Who read a page; an unidentified agent has no kind (the agents breakdown reports it as "unknown"). */
type Reader = { class: 'human' } | { class: 'ai' | 'bot'; agent: string };

/** The AI assistant that sent a human: by its referrer, or else by the page URL's `utm_source`. */
function referredBy(referrer: string | null | undefined, url: string): string | null {
  const assistant = assistantFromReferrer(referrer) ?? assistantFromUtmSource(url);
  return assistant ? `${VIA_PREFIX}${assistant}` : null;
}
