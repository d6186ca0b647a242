import { ingestedEvents, rejectedEvents } from '../../metrics/metrics.js';
import type { NewEvent } from '../store/write-events.js';
import type { BatchResult } from './batch-result.js';
import { prepareEvent, type PageView } from './prepare-event.js';
import type { HashInput, HashThread, InputHasher, VisitorIdentity } from './visitor-hash.js';
import type { AgentVerifier } from './agent-verifier.js';

const CLASS_NAMES = ['bot', 'human', 'ai'];

/** Classifies, hashes and stores page views in one transaction; bad ones are rejected by index with a reason. */
export async function storePageViews(params: {
  store: { insertEvents(projectId: string, events: NewEvent[]): Promise<Set<number>> };
  hasher: InputHasher;
  hashThread: HashThread;
  verifier: AgentVerifier;
  /** how long the batch may wait for reverse DNS of AI agents' addresses (0: use only what is cached) */
  dnsWaitMs: number;
  now: number;
  projectId: string;
  views: PageView[];
}): Promise<BatchResult> {
  const { store, hasher, hashThread, verifier, dnsWaitMs, now, projectId, views } = params;
  const verify = await verifier.prepare({ views, now, waitMs: dnsWaitMs });
  const rejected: BatchResult['rejected'] = [];
  const events: NewEvent[] = [];
  // the hashes are made together, afterwards: each event to hash is marked by an empty hash (no hash is empty)
  const inputs: HashInput[] = [];
  const deferred = (id: string, identity: VisitorIdentity, ts: number) => {
    inputs.push(hasher.input(id, identity, ts));
    return '';
  };
  views.forEach((view, i) => {
    const prepared = prepareEvent({ projectId, view, hasher: deferred, now, verify });
    if ('error' in prepared) rejected.push({ index: i, error: prepared.error });
    else events.push(prepared);
  });
  const hashes = await hashThread.hashAll(inputs);
  let next = 0;
  for (const event of events) if (event.visitorHash === '') event.visitorHash = hashes[next++];
  if (next !== hashes.length) throw new Error(`${hashes.length} visitor hashes made for ${next} events`);
  const duplicates = events.length ? (await store.insertEvents(projectId, events)).size : 0;
  const byClass = [0, 0, 0];
  for (const e of events) byClass[e.kind]++;
  byClass.forEach((n, kind) => {
    if (n) ingestedEvents.inc({ class: CLASS_NAMES[kind] }, n);
  });
  for (const r of rejected) rejectedEvents.inc({ reason: r.error });
  return { accepted: events.length, duplicates, rejected };
}
