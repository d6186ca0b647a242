import { classifyUserAgent } from './classify-user-agent.js';
import type { PageView } from './prepare-event.js';

const ROBOTS_TXT = /^(?:https?:\/\/[^/?#]+)?\/robots\.txt(?:[?#].*)?$/i;

/**
 * The AI agents among the views that asked for /robots.txt (by the name their user agent gives), with when: robots.txt
 * is not a page, so this is all that is kept of those requests.
 */
export function robotsTxtReaders(views: readonly PageView[]): { agent: string; at: number }[] {
  const readers: { agent: string; at: number }[] = [];
  for (const view of views) {
    if (!ROBOTS_TXT.test(view.url.trim())) continue;
    const classification = classifyUserAgent(view.userAgent);
    if (classification.class === 'ai' && Number.isFinite(view.timestamp))
      readers.push({ agent: classification.agent, at: Math.floor(view.timestamp) });
  }
  return readers;
}
