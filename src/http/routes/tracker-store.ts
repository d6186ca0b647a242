import type { AppContext } from '../context.js';
import { GroupCommit } from '../../analytics/group-commit.js';
import { fromProjectSite } from '../../analytics/site-origin.js';
import type { Analytics } from '../../analytics/analytics.js';
import { findProject } from '../../projects/projects.js';

/** A browser tracker event as the route received it, before the project's hostnames are checked. */
export interface TrackerHit {
  projectId: string;
  url: string;
  /** the request's Origin header */
  origin: string | undefined;
  userAgent: string | undefined;
  ip: string | undefined;
  referrer: string | null | undefined;
}

/**
 * Commits of one project in flight at once. Writes are serialised by the database anyway (src/analytics/sql.ts); a
 * second one overlaps its project lookup and classification with the first's transaction, and starts the moment it
 * ends.
 */
const COMMITS_IN_FLIGHT = 2;

/**
 * Stores tracker hits by group commit, one committer per project: the hits of a few milliseconds share one project
 * lookup and one ingest transaction, instead of one of each per request. The returned promise resolves once the hit
 * is committed — or dropped (unknown or disabled project, foreign hostname or origin) — and rejects if its commit
 * failed. With `SCRIBE_TRACKER_COMMIT_EVENTS` 1 every hit is looked up and stored on its own, as it arrives (the path
 * before group commit, kept for the benchmark's comparison).
 */
export function trackerStore(ctx: AppContext, analytics: Analytics): (hit: TrackerHit) => Promise<void> {
  const { maxEvents, maxDelayMs } = ctx.config.trackerCommit;
  const commit = async (projectId: string, hits: (TrackerHit & { timestamp: number })[]) => {
    const project = await findProject(ctx.db, projectId);
    if (!project || project.disabledAt) return;
    const kept = hits.filter((h) => fromProjectSite(project.hostnames, h.url, h.origin));
    if (kept.length) await analytics.ingest(project.id, kept.map(({ timestamp, url, userAgent, ip, referrer }) => ({ timestamp, url, userAgent, ip, referrer })));
  };
  if (maxEvents === 1) return (hit) => commit(hit.projectId, [{ ...hit, timestamp: ctx.clock().getTime() }]);

  // only projects with hits in flight have a committer, so unknown project ids sent by anyone cost nothing lasting
  const committers = new Map<string, GroupCommit<TrackerHit & { timestamp: number }>>();
  return (hit) => {
    let committer = committers.get(hit.projectId);
    if (!committer) {
      committer = new GroupCommit({ maxItems: maxEvents, maxDelayMs, maxConcurrent: COMMITS_IN_FLIGHT, commit: (hits) => commit(hit.projectId, hits), onIdle: () => committers.delete(hit.projectId) });
      committers.set(hit.projectId, committer);
    }
    return committer.add({ ...hit, timestamp: ctx.clock().getTime() });
  };
}
