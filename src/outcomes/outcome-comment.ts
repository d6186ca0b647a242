import type { GitHubApp } from '../github/github-app.js';
import { statusOf } from '../github/github-app.js';
import type { Db } from '../db/client.js';
import { getProject } from '../projects/projects.js';
import type { Outcome, OutcomeWindow } from './compute-outcome.js';
import { MIN_READERS } from './outcome-rules.js';
import { findRunByJob } from '../automations/run-store.js';
import type { Automation } from '../automations/parse-config.js';
import type { DocsMerge } from './merge-store.js';

/**
 * Whether the automation that asked for the job wants its outcome comment: not when its config says
 * `outcome: { comment: false }`. A job no automation started (the API, a problem fix by hand) gets one.
 */
export function automationWantsComment(params: {
  db: Db;
  automations: (projectId: string) => Promise<readonly Pick<Automation, 'id' | 'outcome'>[]>;
}): (merge: DocsMerge) => Promise<boolean> {
  return async (merge) => {
    const run = await findRunByJob(params.db, merge.jobId);
    if (!run) return true;
    const automation = (await params.automations(merge.projectId)).find((a) => a.id === run.automationId);
    return automation?.outcome?.comment !== false;
  };
}

/** The hidden line that names the job a comment reports on: a sweep that posted and stopped before recording it finds it. */
export const outcomeMarker = (jobId: string) => `<!-- scribe-outcome ${jobId} -->`;

/** The windows a comment shows: the 7-day one first, and the 28-day one (edited into the same comment) last. */
export const COMMENT_DAYS = [7, 28] as const;

const count = (n: number) => n.toLocaleString('en-US');
const ratio = (r: number | null) => (r === null ? 'too little traffic' : `×${r.toFixed(2)}`);
const percent = (share: number | null) => (share === null ? '–' : `${Math.round(share * 100)}%`);

const PURPOSE_NAMES = {
  searchIndex: 'search index',
  training: 'training',
  assistant: 'assistants',
  agent: 'agents',
  other: 'other AI',
} as const satisfies Record<keyof OutcomeWindow['total']['aiVisitorsByPurpose'], string>;

function rows(window: OutcomeWindow): string[] {
  const line = (name: string, side: OutcomeWindow['total']) =>
    `| ${name} | ${count(side.humanVisitors.before)} → ${count(side.humanVisitors.after)} (${ratio(side.humanVisitors.ratio)}) | ${count(side.aiVisitors.before)} → ${count(side.aiVisitors.after)} | ${count(side.misses.before)} → ${count(side.misses.after)} | ${percent(side.helpfulShare.before)} → ${percent(side.helpfulShare.after)} | ${count(side.comments.before)} → ${count(side.comments.after)} | ${side.verdict} |`;
  return [
    '| Page | Human visitors | AI visitors | Misses (404) | Helpful | Comments | Verdict |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...window.pages.map((p) =>
      line(
        `\`${p.path}\`${p.change === 'moved' ? ` (moved from \`${p.from}\`)` : p.change === 'added' ? ' (new)' : ''}`,
        p,
      ),
    ),
    line('**All changed pages**', window.total),
  ];
}

/**
 * The comment on a merged docs pull request: the verdict of the window it reports (7 days, then 28 edited in), each
 * changed page's before and after, pages it deleted, the click-through of the search gaps it was started to fix, and
 * the later pull requests that changed the same pages while the window ran. Pure.
 */
export function outcomeCommentBody(params: { jobId: string; outcome: Outcome; days: number }): string {
  const { outcome, days } = params;
  const window = outcome.windows.find((w) => w.days === days);
  if (!window) throw new Error(`no ${days}-day window in the outcome`);
  const deleted = outcome.deleted.map((p) => `\`${p.path}\``);
  const overlaps = window.laterChanges.map((c) => `#${c.number}${c.repository ? ` (${c.repository})` : ''}`);
  // a query is what a reader typed: shown as code, so it can neither format the comment nor mention anyone
  const gaps = window.searches.gaps.map(
    (g) =>
      `\`${g.query.replace(/[`\r\n]+/g, ' ')}\` ${percent(g.before.clickThrough)} → ${percent(g.after.clickThrough)} (${g.change})`,
  );
  // the AI visitors of the pages together by what their agents read for, the purposes with any on either side
  const purposes = Object.entries(window.total.aiVisitorsByPurpose)
    .filter(([, c]) => c.before || c.after)
    .map(([p, c]) => `${PURPOSE_NAMES[p as keyof typeof PURPOSE_NAMES]} ${count(c.before)} → ${count(c.after)}`);
  const body = [
    `### Scribe: did this change help? ${window.total.verdict} after ${days} days`,
    '',
    `Live from ${outcome.liveAt}; the ${days} days after compared with the ${days} days before (same weekdays).`,
    '',
    ...rows(window),
    '',
    ...(purposes.length ? [`AI visitors by purpose: ${purposes.join(' · ')}.`, ''] : []),
    ...(deleted.length ? [`Deleted by this pull request: ${deleted.join(', ')}.`, ''] : []),
    ...(gaps.length
      ? [`Searches this was started to fix, click-through into these pages: ${gaps.join('; ')}.`, '']
      : []),
    ...(overlaps.length
      ? [`Changed again inside the window by ${overlaps.join(', ')}: their effect is mixed into these figures.`, '']
      : []),
    `A ratio needs ${MIN_READERS} human visitors on each side.${days < 28 ? ' This comment is edited with the 28-day figures when they are in.' : ''}`,
  ].join('\n');
  return `${outcomeMarker(params.jobId)}\n${body}`;
}

/** Posts the outcome comment, or edits it in place; returns its id. */
export type PostOutcomeComment = (params: {
  projectId: string;
  jobId: string;
  repository: string;
  number: number;
  /** the comment posted before, to edit; null on the first */
  commentId: string | null;
  body: string;
}) => Promise<string>;

/** The error's status when GitHub will never take this comment (the repository or pull request is gone, no access). */
export function permanentCommentFailure(err: unknown): number | null {
  const status = statusOf(err);
  return status === 403 || status === 404 || status === 410 || status === 422 ? status : null;
}

/**
 * Through the App: edits the comment posted before; else one with the job's marker already on the pull request (a
 * sweep posted it and stopped before recording it); else posts a new one. So a pull request has one outcome comment.
 */
export function gitHubOutcomeComments(params: { db: Db; github: GitHubApp }): PostOutcomeComment {
  const { db, github } = params;
  return async (comment) => {
    const { installationId } = await getProject(db, comment.projectId);
    const octokit = await github.octokit(await github.installationFor(comment.repository, installationId));
    const [owner, repo] = comment.repository.split('/');
    const edit = async (id: string) => {
      await octokit.rest.issues.updateComment({ owner, repo, comment_id: Number(id), body: comment.body });
      return id;
    };
    if (comment.commentId) {
      try {
        return await edit(comment.commentId);
      } catch (err) {
        // deleted by someone on the pull request: a new one is posted below
        if (statusOf(err) !== 404) throw err;
      }
    }
    const marker = outcomeMarker(comment.jobId);
    const existing = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: comment.number,
      per_page: 100,
    });
    const mine = existing.find((c) => c.body?.startsWith(marker));
    if (mine) return edit(String(mine.id));
    const { data } = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: comment.number,
      body: comment.body,
    });
    return String(data.id);
  };
}
