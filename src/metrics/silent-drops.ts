import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { droppedSubmissions } from './metrics.js';

export type DropReason = 'unknown_project' | 'disabled_project' | 'host_not_listed' | 'bot';
export type DroppedSubmission = 'page_view' | 'feedback' | 'search' | 'miss';

const LOG_EVERY_MS = 60_000;
/** projects × reasons remembered for the once-a-minute log; unknown project ids come from anyone, so it is bounded */
const REMEMBERED = 10_000;

/**
 * What the browser collection drops without telling the page (so a page learns nothing from its answer): counted
 * by reason in `scribe_dropped_submissions_total`, and logged at debug at most once a minute per project and reason,
 * so an operator can find why a site's views are missing without a flood from a misconfigured or hostile page.
 */
export class SilentDrops {
  private readonly logged: LRUCache<string, true>;

  constructor(private readonly params: { clock: Clock; logger: Logger }) {
    this.logged = new LRUCache({
      max: REMEMBERED,
      ttl: LOG_EVERY_MS,
      ttlResolution: 0,
      perf: { now: () => params.clock().getTime() },
    });
  }

  record(drop: { projectId: string; reason: DropReason; submission: DroppedSubmission; count?: number }): void {
    const count = drop.count ?? 1;
    droppedSubmissions.inc({ reason: drop.reason, submission: drop.submission }, count);
    const key = `${drop.reason} ${drop.projectId}`;
    if (this.logged.has(key)) return;
    this.logged.set(key, true);
    this.params.logger.debug(
      { projectId: drop.projectId, reason: drop.reason, submission: drop.submission, count },
      'dropped a browser submission (logged at most once a minute per project and reason)',
    );
  }
}
