import picomatch from 'picomatch';
import type { FeedbackTrigger } from './parse-config.js';

/** The counts a trigger is checked against: a page's feedback since its last feedback run of the automation. */
export interface FeedbackCounts {
  thumbsDown: number;
  comments: number;
}

/** Whether the trigger follows this page (no `pages`: every page). */
export function followsPage(trigger: FeedbackTrigger, path: string): boolean {
  return !trigger.pages || picomatch.isMatch(path, trigger.pages, { dot: true });
}

/**
 * Why this window of a page's feedback starts a run: the thumbs-down threshold reached, new comments (when the
 * trigger takes them). Empty when it does not start one. Pure.
 */
export function feedbackReasons(trigger: FeedbackTrigger, counts: FeedbackCounts): string[] {
  const reasons: string[] = [];
  if (trigger.thumbsDown !== null && counts.thumbsDown >= trigger.thumbsDown) {
    reasons.push(`${plural(counts.thumbsDown, 'thumbs-down', 'thumbs-down')} (threshold: ${trigger.thumbsDown})`);
  }
  if (trigger.comment && counts.comments > 0) reasons.push(plural(counts.comments, 'new comment', 'new comments'));
  return reasons;
}

/**
 * Comments that arrived on rows an earlier run already covered (a widget's comment follows its own vote, which may
 * have been the vote that reached the threshold): each starts a run of its own when the trigger takes comments.
 * Rows after `coveredThrough` are left to the window. Pure.
 */
export function lateComments<R extends { id: number; newComment: boolean }>(
  trigger: FeedbackTrigger,
  rows: R[],
  coveredThrough: number,
): R[] {
  return trigger.comment ? rows.filter((r) => r.newComment && r.id <= coveredThrough) : [];
}

export function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}
