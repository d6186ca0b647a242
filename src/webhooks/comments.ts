import { sanitizeComment } from './sanitize-comment.js';
import { readMention } from './read-mention.js';
import { queueFollowUp } from './follow-ups.js';
import { runIssueCommand } from './issue-commands.js';
import { docsCommand } from './docs-draft-requests.js';
import { ignored, type Delivery, type HandlerResult, type WebhookDeps } from './webhook-deps.js';

/** issue_comment.created: on a Scribe pull request a follow-up, on an issue a command. */
export async function handleIssueComment(
  deps: WebhookDeps,
  delivery: Delivery<'issue_comment'>,
): Promise<HandlerResult> {
  const { payload } = delivery;
  if (payload.action !== 'created') return ignored(`issue_comment.${payload.action} needs nothing`);
  const mention = await readMention(deps, payload);
  if (typeof mention === 'string') return ignored(mention);
  const { issue } = payload;
  const { octokit } = delivery;
  if (issue.pull_request)
    return (
      (await docsCommand({ deps, octokit, mention, number: issue.number })) ??
      queueFollowUp({ deps, octokit, mention: { ...mention, pullNumber: issue.number, review: null } })
    );
  return runIssueCommand({
    deps,
    octokit,
    command: {
      ...mention,
      issue: { number: issue.number, title: sanitizeComment(issue.title), body: sanitizeComment(issue.body ?? '') },
    },
  });
}

/** pull_request_review_comment.created: a follow-up whose file and line the agent is told about. */
export async function handleReviewComment(
  deps: WebhookDeps,
  delivery: Delivery<'pull_request_review_comment'>,
): Promise<HandlerResult> {
  const { payload } = delivery;
  if (payload.action !== 'created') return ignored(`pull_request_review_comment.${payload.action} needs nothing`);
  const mention = await readMention(deps, payload);
  if (typeof mention === 'string') return ignored(mention);
  const { comment } = payload;
  // Replies in a thread point at the thread's first comment; GitHub only accepts replies to that one.
  const threadId = comment.in_reply_to_id ?? comment.id;
  return queueFollowUp({
    deps,
    octokit: delivery.octokit,
    mention: {
      ...mention,
      pullNumber: payload.pull_request.number,
      branch:
        payload.pull_request.head.repo?.full_name === mention.repository ? payload.pull_request.head.ref : undefined,
      review: { threadId, path: comment.path, line: comment.line ?? comment.original_line ?? null },
    },
  });
}
