import { findJobByPullRequest } from '../jobs/job-store.js';
import { findProject } from '../projects/projects.js';
import type { InstallationOctokit } from '../github/github-app.js';
import { hasWriteAccess } from './has-write-access.js';
import { findTriggerByComment, saveTrigger } from '../conversations/triggers.js';
import { postReply } from '../conversations/post-reply.js';
import { commentRequestKey, type Mention } from './read-mention.js';
import { refusal } from './refusal.js';
import { done, ignored, type HandlerResult, type WebhookDeps } from './webhook-deps.js';

export interface FollowUpMention extends Mention {
  pullNumber: number;
  branch?: string;
  review: { threadId: number; path: string; line: number | null } | null;
}

/**
 * A mention on a Scribe pull request by someone with write access becomes a follow-up message on its job; the
 * reply comes when the run carrying it out ends (see conversations/job-replies.ts). Refusals the author can act on
 * (archived job, rate limit) are answered at once.
 */
export async function queueFollowUp(params: {
  deps: WebhookDeps;
  octokit: InstallationOctokit;
  mention: FollowUpMention;
}): Promise<HandlerResult> {
  const { deps, octokit, mention } = params;
  const { db, clock } = deps;
  const job = await findJobByPullRequest({
    db,
    repository: mention.repository,
    number: mention.pullNumber,
    branch: mention.branch,
  });
  if (!job) return ignored('not a Scribe pull request');
  const project = await findProject(db, job.projectId);
  if (!project || project.disabledAt) return ignored('the project is disabled');
  if (!(await hasWriteAccess({ octokit, repository: mention.repository, username: mention.author })))
    return ignored(`${mention.author} has no write access`);
  if (!mention.instruction) return ignored('mention without an instruction');
  // Processing is at-least-once: a retried delivery of this comment finds what its first attempt started.
  const earlier = await findTriggerByComment(db, mention.repository, mention.commentId);
  if (earlier) return done(`comment already became message ${earlier.seq} of job ${earlier.jobId}`);
  const target = {
    octokit,
    repository: mention.repository,
    issueNumber: mention.pullNumber,
    reviewCommentId: mention.review?.threadId ?? null,
  };
  let seq: number;
  try {
    ({ seq } = await deps.jobs.followUp({
      projectId: job.projectId,
      jobId: job.id,
      prompt: mention.instruction,
      requestKey: commentRequestKey(mention, mention.review ? 'review' : 'issue'),
      beforeWake: async (_job, added) => {
        await saveTrigger({
          db,
          clock,
          trigger: {
            jobId: job.id,
            seq: added,
            kind: 'follow_up',
            repository: mention.repository,
            installationId: mention.installationId,
            issueNumber: mention.pullNumber,
            reviewCommentId: mention.review?.threadId ?? null,
            path: mention.review?.path ?? null,
            line: mention.review?.line ?? null,
            commentId: mention.commentId,
            author: mention.author,
          },
        });
      },
    }));
  } catch (err) {
    const refused = refusal(mention.author, err);
    if (!refused) throw err;
    await postReply({ ...target, body: refused.reply });
    return done(refused.outcome);
  }
  return done(`follow-up ${seq} queued on job ${job.id}`);
}
