import { createHash } from 'node:crypto';
import type { FeedbackStored } from '../analytics/signals/feedback-stored.js';
import type {
  PageComment,
  PageCommentsQuery,
  PageFeedbackWindow,
  PageWindowsQuery,
} from '../analytics/signals/store/page-feedback.js';
import { findProject, type Project } from '../projects/projects.js';
import { findConfig } from './config-store.js';
import type { Automation, FeedbackTrigger } from './parse-config.js';
import { feedbackCoveredThrough, type AutomationRun } from './run-store.js';
import { startRun } from './start-run.js';
import type { AutomationDeps } from './automation-deps.js';
import { feedbackReasons, followsPage, lateComments } from './evaluate-feedback.js';
import { describeFeedback, feedbackSummary, MAX_QUOTED_COMMENTS, type FeedbackContext } from './describe-feedback.js';

/** Reads of the page feedback the analytics service owns, handed over by main.ts. */
export interface FeedbackReader {
  pageWindows(params: PageWindowsQuery): Promise<Map<string, PageFeedbackWindow>>;
  pageThumbs(projectId: string, path: string): Promise<{ thumbsUp: number; thumbsDown: number }>;
  pageComments(params: PageCommentsQuery): Promise<PageComment[]>;
}

type FeedbackAutomation = Automation & { on: FeedbackTrigger };

export type FeedbackRunDeps = AutomationDeps & { feedback: FeedbackReader };

/**
 * Run keys name the page by a short hash of its path (up to 1,024 bytes), keeping the run key index small; the hash
 * is part of every stored key, so changing it would let already-covered feedback start a run again.
 */
const pageKey = (path: string) => createHash('sha256').update(path).digest('base64url').slice(0, 22);

/**
 * Feedback was stored: each feedback automation of the project checks the pages it follows. A page whose feedback
 * since the automation's last feedback run for it (or since the automation loaded) meets the trigger starts a run
 * keyed by that last run, so however many requests or processes see the crossing, one run is claimed, and the
 * feedback it covers never counts again. A comment added to a row an earlier run covered starts a run of its own.
 */
export async function startFeedbackRuns(deps: FeedbackRunDeps, stored: FeedbackStored): Promise<AutomationRun[]> {
  const config = await findConfig(deps.db, stored.projectId);
  const automations = (config?.automations ?? []).filter((a): a is FeedbackAutomation => a.on.kind === 'feedback');
  if (!config || !automations.length) return [];
  const project = await findProject(deps.db, stored.projectId);
  if (!project || project.disabledAt) return [];
  const started: AutomationRun[] = [];
  for (const automation of automations) {
    const paths = [...new Set(stored.rows.map((r) => r.path))].filter((path) => followsPage(automation.on, path));
    if (!paths.length) continue;
    const receivedSince = Date.parse(config.firstSeen[automation.id] ?? deps.clock().toISOString());
    const covered = await feedbackCoveredThrough({
      db: deps.db,
      projectId: project.id,
      automationId: automation.id,
      pages: paths,
    });
    const windows = await deps.feedback.pageWindows({
      projectId: project.id,
      receivedSince,
      pages: paths.map((path) => ({ path, afterId: covered.get(path)! })),
    });
    for (const path of paths) {
      const after = covered.get(path)!;
      const window = windows.get(path)!;
      const reasons = feedbackReasons(automation.on, window);
      const page = { deps, project, automation, path };
      if (reasons.length && window.through !== null) {
        const comments = window.comments
          ? await deps.feedback.pageComments({
              projectId: project.id,
              path,
              afterId: after,
              throughId: window.through,
              receivedSince,
              limit: MAX_QUOTED_COMMENTS,
            })
          : [];
        const run = await startPageRun({
          ...page,
          dedupeKey: `feedback:${pageKey(path)}:${after}`,
          through: window.through,
          context: { reasons, sinceEarlierRun: after > 0, window, comments },
        });
        if (run) started.push(run);
      }
      for (const row of lateComments(
        automation.on,
        stored.rows.filter((r) => r.path === path),
        after,
      )) {
        const [comment] = await deps.feedback.pageComments({
          projectId: project.id,
          path,
          afterId: row.id - 1,
          throughId: row.id,
          receivedSince: 0,
          limit: 1,
        });
        if (!comment) continue;
        const context = {
          reasons: ['a comment added to feedback an earlier run already counted'],
          sinceEarlierRun: true,
          window: { thumbsUp: 0, thumbsDown: 0, comments: 1 },
          comments: [comment],
        };
        const run = await startPageRun({ ...page, dedupeKey: `feedback-comment:${row.id}`, through: null, context });
        if (run) started.push(run);
      }
    }
  }
  return started;
}

async function startPageRun(params: {
  deps: FeedbackRunDeps;
  project: Project;
  automation: FeedbackAutomation;
  path: string;
  dedupeKey: string;
  /** the window's last row, which the next window starts after; null for a late comment's run, which moves nothing */
  through: number | null;
  context: Omit<FeedbackContext, 'path' | 'url' | 'allTime'>;
}): Promise<AutomationRun | null> {
  const { deps, project, automation, path } = params;
  const host = project.hostnames[0];
  const context: FeedbackContext = {
    ...params.context,
    path,
    url: host ? `https://${host}${path}` : null,
    allTime: await deps.feedback.pageThumbs(project.id, path),
  };
  const run = await startRun(deps, {
    project,
    automation,
    request: {
      trigger: 'feedback',
      dedupeKey: params.dedupeKey,
      page: path,
      feedbackThrough: params.through,
      change: describeFeedback(context),
      summary: feedbackSummary(context),
    },
  });
  // No caller records what stored feedback set off, so each run it started is logged here.
  if (run)
    deps.logger.info(
      { project: project.id, automation: automation.id, run: run.id, page: path, status: run.status, job: run.jobId },
      'reader feedback started an automation run',
    );
  return run;
}
