import { isBot, parseMention } from './parse-mention.js';
import { sanitizeComment } from './sanitize-comment.js';
import type { WebhookDeps } from './webhook-deps.js';

/** What both kinds of comment share once the App is mentioned by a person. */
export interface Mention {
  repository: string;
  installationId: number;
  author: string;
  commentId: number;
  /** sanitised instruction, mention removed; may be empty */
  instruction: string;
}

/**
 * The job request a comment makes, named so a retried delivery finds what the first one stored (see
 * `NewJob.requestKey`). Issue comments and review comments are numbered apart on GitHub, so the kind is part of it.
 */
export function commentRequestKey(mention: Mention, kind: 'issue' | 'review'): string {
  return `github ${kind} comment ${mention.repository} ${mention.commentId}`;
}

type Comment = { id: number; body?: string | null; user: { login: string; type?: string } | null };

/** The mention in a comment by a person, or why the comment asks nothing of the App. */
export async function readMention(
  deps: WebhookDeps,
  payload: {
    comment: Comment;
    sender?: { login: string; type?: string };
    repository: { full_name: string };
    installation?: { id: number };
  },
): Promise<Mention | string> {
  const { comment } = payload;
  if (isBot(comment.user) || (payload.sender && isBot(payload.sender))) return 'comment by a bot';
  if (!payload.installation) return 'delivery without an installation';
  // Sanitised before anything reads it: a mention hidden in an HTML comment must not trigger work either.
  const instruction = parseMention(sanitizeComment(comment.body ?? ''), await deps.appSlug());
  if (instruction === null) return 'the App is not mentioned';
  return {
    repository: payload.repository.full_name,
    installationId: payload.installation.id,
    author: comment.user!.login,
    commentId: comment.id,
    instruction,
  };
}
