import { addMessage, findJobByPullRequest, listMessages } from '../../jobs/job-store.js';
import { enforceJobRateLimit } from '../../jobs/rate-limit.js';
import { findProject } from '../../projects/projects.js';
import { Conflict, RateLimited } from '../../errors.js';
import type { InstallationOctokit } from '../github-app.js';
import { hasWriteAccess } from '../has-write-access.js';
import { saveTrigger } from '../triggers.js';
import { postReply } from '../post-reply.js';
import type { Mention } from './comments.js';
import { done, ignored, type HandlerResult, type WebhookDeps } from './webhook-deps.js';

export interface FollowUpMention extends Mention {
  pullNumber: number;
  branch?: string;
  review: { threadId: number; path: string; line: number | null } | null;
}

/**
 * A mention on a Scribe pull request by someone with write access becomes a follow-up message on its job; the
 * reply comes when the run carrying it out ends (see job-replies.ts). Refusals the author can act on (archived
 * job, rate limit) are answered at once.
 */
export async function queueFollowUp(params: { deps: WebhookDeps; octokit: InstallationOctokit; mention: FollowUpMention }): Promise<HandlerResult> {
  const { deps, octokit, mention } = params;
  const { db, clock } = deps;
  const job = await findJobByPullRequest({ db, repository: mention.repository, number: mention.pullNumber, branch: mention.branch });
  if (!job) return ignored('not a Scribe pull request');
  const project = await findProject(db, job.projectId);
  if (!project || project.disabledAt) return ignored('the project is disabled');
  if (!(await hasWriteAccess({ octokit, repository: mention.repository, username: mention.author }))) return ignored(`${mention.author} has no write access`);
  if (!mention.instruction) return ignored('mention without an instruction');
  const target = { octokit, repository: mention.repository, issueNumber: mention.pullNumber, reviewCommentId: mention.review?.threadId ?? null };
  try {
    await enforceJobRateLimit({ db, clock, projectId: job.projectId, perHour: deps.config.jobs.ratePerHour });
    await addMessage({ db, clock, projectId: job.projectId, jobId: job.id, prompt: mention.instruction });
  } catch (err) {
    if (!(err instanceof Conflict) && !(err instanceof RateLimited)) throw err;
    await postReply({ ...target, body: `@${mention.author} ${err.message}.` });
    return done(`refused: ${err.message}`);
  }
  const seq = (await listMessages(db, job.id)).filter((m) => m.prompt === mention.instruction).at(-1)!.seq;
  await saveTrigger({
    db,
    clock,
    trigger: {
      jobId: job.id,
      seq,
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
  deps.wakeWorker();
  return done(`follow-up ${seq} queued on job ${job.id}`);
}
