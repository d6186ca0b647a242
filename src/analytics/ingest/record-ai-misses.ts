import { insertAiMisses, type StoredMiss } from '../store/ai-misses.js';
import type { Sql } from '../store/sql.js';
import { classifyUserAgent } from './classify-user-agent.js';
import { isRawMarkdown, pagePath } from './page-path.js';
import { UNIDENTIFIED_AGENT, type PageView } from './prepare-event.js';

/** A request answered 404, 410 or 5xx, with the idempotency key of its line. */
export interface Miss {
  view: PageView;
  status: number;
  key: string;
}

/** The AI agent behind a request, by the same rules as page views (raw Markdown read by an unlisted client is AI). */
function aiAgentOf(miss: Miss): string | undefined {
  const reader = classifyUserAgent(miss.view.userAgent);
  if (reader.class === 'ai') return reader.agent;
  if (reader.class === 'human' && isRawMarkdown(miss.view.url)) return UNIDENTIFIED_AGENT;
  return undefined;
}

/**
 * Keeps the requests of AI agents among `misses` (404/410/5xx from a log); others, and static assets, are dropped.
 * Each is stored once per key, so importing a log again adds nothing. Returns how many were new.
 */
export function recordAiMisses(params: { sql: Sql; projectId: string; misses: Miss[] }): Promise<number> {
  const kept: StoredMiss[] = [];
  for (const miss of params.misses) {
    const agent = aiAgentOf(miss);
    const path = agent === undefined ? undefined : pagePath(miss.view.url);
    if (agent === undefined || path === undefined || !(miss.view.timestamp >= 0)) continue;
    kept.push({ key: miss.key, ts: Math.floor(miss.view.timestamp), path, agent, status: miss.status });
  }
  return insertAiMisses(params.sql, { projectId: params.projectId, misses: kept });
}
