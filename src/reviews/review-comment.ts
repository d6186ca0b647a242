import type { InstallationOctokit } from '../github/github-app.js';
import { statusOf } from '../github/github-app.js';
import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { findReviewComment, saveReviewComment } from './review-store.js';

/** The hidden line that names the automation a comment belongs to, so people (and Scribe) can tell them apart. */
export const commentMarker = (projectId: string, automationId: string) =>
  `<!-- scribe-docs-review ${projectId}/${automationId} -->`;

/** The comment's text: the check's title and summary while pages are found, "resolved" once a push has none. Pure. */
export function reviewCommentBody(params: {
  projectId: string;
  automationId: string;
  headSha: string;
  title: string;
  summary: string;
  resolved: boolean;
  checkUrl: string;
}): string {
  const head = params.headSha.slice(0, 7);
  const body = params.resolved
    ? `### Scribe docs: resolved\n\nAs of ${head}, this pull request no longer changes anything the docs describe. [Details](${params.checkUrl})`
    : `### Scribe docs: ${params.title}\n\nAs of ${head} ([check](${params.checkUrl})):\n\n${params.summary}`;
  const marker = commentMarker(params.projectId, params.automationId);
  // an issue comment holds at most 65,536 characters
  const room = 65_000 - marker.length;
  return `${marker}\n${body.length > room ? `${body.slice(0, room)}\n\n… (cut; the check has the full list)` : body}`;
}

/**
 * The automation's one comment on the pull request: created when pages are first found, edited in place after, and
 * edited to "resolved" when a later push finds none (kept rather than deleted, so the thread's history still makes
 * sense). Nothing is posted while no page was ever found. Returns what it did, for the delivery's outcome.
 */
export async function upsertReviewComment(params: {
  db: Db;
  clock: Clock;
  octokit: InstallationOctokit;
  projectId: string;
  automationId: string;
  repository: string;
  number: number;
  headSha: string;
  body: string;
  resolved: boolean;
}): Promise<string> {
  const { db, octokit } = params;
  const [owner, repo] = params.repository.split('/');
  const key = { ...params };
  const existing = await findReviewComment(db, key);
  if (!existing && params.resolved) return 'no comment';
  const comment = { state: params.resolved ? ('resolved' as const) : ('open' as const), headSha: params.headSha };
  if (existing) {
    try {
      await octokit.rest.issues.updateComment({
        owner,
        repo,
        comment_id: Number(existing.commentId),
        body: params.body,
      });
      await saveReviewComment({
        db,
        clock: params.clock,
        key,
        comment: { ...comment, commentId: existing.commentId },
        first: false,
      });
      return `comment ${params.resolved ? 'resolved' : 'updated'}`;
    } catch (err) {
      // deleted by someone on the pull request: a new one is posted below, and kept in its place
      if (statusOf(err) !== 404) throw err;
      if (params.resolved) return 'no comment';
    }
  }
  const { data } = await octokit.rest.issues.createComment({
    owner,
    repo,
    issue_number: params.number,
    body: params.body,
  });
  const commentId = String(data.id);
  if (existing) {
    await saveReviewComment({ db, clock: params.clock, key, comment: { ...comment, commentId }, first: false });
    return 'comment posted again';
  }
  if (await saveReviewComment({ db, clock: params.clock, key, comment: { ...comment, commentId }, first: true }))
    return 'comment posted';
  // another process posted the first comment at the same moment: the pull request keeps that one
  await octokit.rest.issues.deleteComment({ owner, repo, comment_id: data.id });
  return 'comment already posted';
}
