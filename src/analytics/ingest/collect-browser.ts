import type { Clock } from '../../clock.js';
import type { TrackerCommitConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import { findProject, type Project } from '../../projects/projects.js';
import { SilentDrops, type DroppedSubmission } from '../../metrics/silent-drops.js';
import type { ReaderSignals } from '../signals/reader-signals.js';
import { classifyUserAgent } from './classify-user-agent.js';
import { GroupCommit } from './group-commit.js';
import type { PageView } from './prepare-event.js';
import { fromProjectSite } from './site-origin.js';
import type { Miss } from './record-ai-misses.js';
import { pagePath } from './page-path.js';
import { createHash } from 'node:crypto';

/** A browser submission as its route read it, before the project's hostnames are checked. */
export interface BrowserHit {
  projectId: string;
  /** the page the submission is about */
  url: string;
  /** the request's Origin header */
  origin: string | undefined;
  userAgent: string | undefined;
  ip: string | undefined;
}

/** A tracker page view. */
export interface TrackerHit extends BrowserHit {
  referrer: string | null | undefined;
}

type TimedHit = TrackerHit & { timestamp: number };

/**
 * Commits of one project in flight at once. Writes are serialised by the database anyway (src/analytics/store/sql.ts);
 * a second one overlaps its project lookup and classification with the first's transaction, and starts the moment it
 * ends.
 */
const COMMITS_IN_FLIGHT = 2;

/**
 * What the browser posts — tracker page views, the widget's feedback, site searches — taken only from the project's
 * own sites (page URL and Origin) while the project is enabled; anything else is dropped without a word, so a page
 * learns nothing from its answer. Page views are stored by group commit, one committer per project: the hits of a
 * few milliseconds share one project lookup and one ingest transaction, instead of one of each per request.
 */
export class BrowserCollector {
  // only projects with hits in flight have a committer, so unknown project ids sent by anyone cost nothing lasting
  private readonly committers = new Map<string, GroupCommit<TimedHit>>();
  private readonly drops: SilentDrops;

  constructor(
    private readonly params: {
      db: Db;
      commit: TrackerCommitConfig;
      ingest: (projectId: string, views: PageView[]) => Promise<unknown>;
      signals: () => Pick<ReaderSignals, 'submitFeedback' | 'submitSearches'>;
      /** keeps a page a person was answered "not found" for (absent: the beacon is dropped) */
      miss?: (projectId: string, miss: Miss) => Promise<unknown>;
      clock: Clock;
      logger: Logger;
    },
  ) {
    this.drops = new SilentDrops(params);
  }

  /**
   * Stores (or drops) a page view. Resolves once the hit is committed — or dropped (unknown or disabled project,
   * foreign hostname or origin) — and rejects if its commit failed. With `SCRIBE_TRACKER_COMMIT_EVENTS` 1 every hit is
   * looked up and stored on its own, as it arrives (the path before group commit, kept for the benchmark's comparison).
   */
  pageView(hit: TrackerHit): Promise<void> {
    const timed = { ...hit, timestamp: this.params.clock().getTime() };
    const { maxEvents, maxDelayMs } = this.params.commit;
    if (maxEvents === 1) return this.commitPageViews(hit.projectId, [timed]);
    let committer = this.committers.get(hit.projectId);
    if (!committer) {
      committer = new GroupCommit({
        maxItems: maxEvents,
        maxDelayMs,
        maxConcurrent: COMMITS_IN_FLIGHT,
        commit: (hits) => this.commitPageViews(hit.projectId, hits),
        onIdle: () => this.committers.delete(hit.projectId),
      });
      this.committers.set(hit.projectId, committer);
    }
    return committer.add(timed);
  }

  /** Stores a widget vote or comment from a person on the project's site; a failure to store it is only logged. */
  async feedback(
    hit: BrowserHit,
    feedback: { helpful: boolean; comment?: string | null; submission?: string },
  ): Promise<void> {
    const who = await this.person(hit, 'feedback');
    if (!who) return;
    const { projectId, ...person } = who;
    await this.params
      .signals()
      .submitFeedback(
        projectId,
        [
          {
            ...person,
            path: hit.url,
            helpful: feedback.helpful,
            comment: feedback.comment,
            submission: feedback.submission,
          },
        ],
        'update',
      )
      .catch(this.dropped);
  }

  /** Stores a site search or result click from a person on the project's site; a failure to store it is only logged. */
  async search(hit: BrowserHit, search: { query: string; clickedPath?: string }): Promise<void> {
    const who = await this.person(hit, 'search');
    if (!who) return;
    const { projectId, ...person } = who;
    await this.params
      .signals()
      .submitSearches(projectId, [
        { ...person, query: search.query, clickedPath: search.clickedPath && pathOnSite(search.clickedPath, hit.url) },
      ])
      .catch(this.dropped);
  }

  /**
   * A person on the project's site was shown its "not found" page (the site's 404 page called `scribe('404')`): kept
   * as an imported log's 404 is, once per visitor, page and minute (a reload is not a second miss). A failure to store
   * it is only logged.
   */
  async miss(hit: BrowserHit): Promise<void> {
    const who = await this.person(hit, 'miss');
    if (!who || !this.params.miss) return;
    const timestamp = this.params.clock().getTime();
    const minute = Math.floor(timestamp / 60_000);
    const page = pagePath(hit.url) ?? hit.url;
    const key = `beacon:${createHash('sha256')
      .update(`${who.ip}\0${who.userAgent ?? ''}\0${page}\0${minute}`)
      .digest('base64url')}`;
    await this.params
      .miss(who.projectId, {
        view: { timestamp, url: hit.url, userAgent: hit.userAgent, ip: who.ip },
        status: 404,
        key,
      })
      .catch(this.dropped);
  }

  private async commitPageViews(projectId: string, hits: TimedHit[]): Promise<void> {
    const project = await this.enabledProject(projectId, 'page_view', hits.length);
    if (!project) return;
    const kept = hits.filter((h) => fromProjectSite(project.hostnames, h.url, h.origin));
    if (kept.length < hits.length)
      this.drops.record({
        projectId,
        reason: 'host_not_listed',
        submission: 'page_view',
        count: hits.length - kept.length,
      });
    if (kept.length)
      await this.params.ingest(
        project.id,
        kept.map(({ timestamp, url, userAgent, ip, referrer }) => ({ timestamp, url, userAgent, ip, referrer })),
      );
  }

  /** The submitter when the submission is from the project's site and a person; undefined to drop it. */
  private async person(hit: BrowserHit, submission: DroppedSubmission) {
    const project = await this.enabledProject(hit.projectId, submission, 1);
    if (!project) return undefined;
    const drop = (reason: 'host_not_listed' | 'bot') => {
      this.drops.record({ projectId: project.id, reason, submission });
      return undefined;
    };
    if (!fromProjectSite(project.hostnames, hit.url, hit.origin)) return drop('host_not_listed');
    if (classifyUserAgent(hit.userAgent).class !== 'human') return drop('bot');
    return hit.ip ? { projectId: project.id, ip: hit.ip, userAgent: hit.userAgent } : undefined;
  }

  /** The project, when it exists and is enabled; otherwise the `count` submissions are recorded as dropped. */
  private async enabledProject(
    projectId: string,
    submission: DroppedSubmission,
    count: number,
  ): Promise<Project | undefined> {
    const project = await findProject(this.params.db, projectId);
    if (project && !project.disabledAt) return project;
    this.drops.record({ projectId, reason: project ? 'disabled_project' : 'unknown_project', submission, count });
    return undefined;
  }

  private readonly dropped = (err: unknown) => this.params.logger.error({ err }, 'storing a tracker submission failed');
}

/** A clicked result as a path: relative links resolve against the page; links to other sites are kept as their URL's path. */
function pathOnSite(clicked: string, pageUrl: string): string {
  try {
    return new URL(clicked, pageUrl).pathname;
  } catch {
    return clicked;
  }
}
