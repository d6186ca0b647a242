import type { StoredPageMiss } from '../store/page-misses.js';
import { KIND } from '../store/day-sets.js';
import { isVerified } from '../store/write-events.js';
import { type CheckAgent, prepareEvent } from './prepare-event.js';
import type { Miss } from './record-ai-misses.js';
import type { VisitorHasher } from './visitor-hash.js';

/** What a missing page is: a URL answered "not found" or "gone" (a 5xx is the server's failure, not a missing page). */
const MISSING = new Set([404, 410]);

/**
 * The 404s and 410s among `misses` that a human or an AI agent asked for, classified, hashed and verified as a page
 * view would be (bots, spoofed agents, static assets and lines without an address are dropped). Pure.
 */
export function pageMisses(params: {
  projectId: string;
  misses: Miss[];
  hasher: VisitorHasher;
  now: number;
  verify?: CheckAgent;
}): StoredPageMiss[] {
  const kept: StoredPageMiss[] = [];
  for (const miss of params.misses) {
    if (!MISSING.has(miss.status)) continue;
    const event = prepareEvent({ ...params, view: miss.view });
    if ('error' in event || event.kind === KIND.bot || !event.visitorHash) continue;
    const ai = event.kind === KIND.ai;
    kept.push({
      key: miss.key,
      ts: event.ts,
      path: event.path,
      class: ai ? 'ai' : 'human',
      agent: ai ? event.agent : null,
      verified: ai ? isVerified(event.verification) : null,
      status: miss.status,
      visitorHash: event.visitorHash,
    });
  }
  return kept;
}
