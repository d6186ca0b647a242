import { ingestedEvents, rejectedEvents } from '../../metrics/metrics.js';
import type { NewEvent } from '../store/write-events.js';
import type { BatchResult } from './batch-result.js';
import { prepareEvent, type PageView } from './prepare-event.js';
import type { VisitorHasher } from './visitor-hash.js';
import type { AgentVerifier } from './agent-verifier.js';

const CLASS_NAMES = ['bot', 'human', 'ai'];

/** Classifies, hashes and stores page views in one transaction; bad ones are rejected by index with a reason. */
export async function storePageViews(params: {
  store: { insertEvents(projectId: string, events: NewEvent[]): Promise<Set<number>> };
  hasher: VisitorHasher;
  verifier: AgentVerifier;
  /** how long the batch may wait for reverse DNS of AI agents' addresses (0: use only what is cached) */
  dnsWaitMs: number;
  now: number;
  projectId: string;
  views: PageView[];
}): Promise<BatchResult> {
  const { store, hasher, verifier, dnsWaitMs, now, projectId, views } = params;
  const verify = await verifier.prepare({ views, now, waitMs: dnsWaitMs });
  const rejected: BatchResult['rejected'] = [];
  const events: NewEvent[] = [];
  views.forEach((view, i) => {
    const prepared = prepareEvent({ projectId, view, hasher, now, verify });
    if ('error' in prepared) rejected.push({ index: i, error: prepared.error });
    else events.push(prepared);
  });
  const duplicates = events.length ? (await store.insertEvents(projectId, events)).size : 0;
  const byClass = [0, 0, 0];
  for (const e of events) byClass[e.kind]++;
  byClass.forEach((n, kind) => {
    if (n) ingestedEvents.inc({ class: CLASS_NAMES[kind] }, n);
  });
  for (const r of rejected) rejectedEvents.inc({ reason: r.error });
  return { accepted: events.length, duplicates, rejected };
}
