import { jobUrl } from '../jobs/job-url.js';
import type { JobRecord } from '../jobs/job-store.js';
import { findProjectByRepository } from '../projects/projects.js';
import type { InstallationOctokit } from '../github/github-app.js';
import { hasWriteAccess } from './has-write-access.js';
import { findTriggerByComment, saveTrigger } from '../conversations/triggers.js';
import { postReply } from '../conversations/post-reply.js';
import { commandAcceptedText, issueCommandPrompt } from '../conversations/reply-text.js';
import { commentRequestKey, type Mention } from './read-mention.js';
import { refusal } from './refusal.js';
import { done, ignored, type HandlerResult, type WebhookDeps } from './webhook-deps.js';

export interface IssueCommand extends Mention {
  issue: { number: number; title: string; body: string };
}

/**
 * `@<slug> <instruction>` on an issue of a project's repository, by someone with write access: a new job whose
 * prompt is the instruction plus the issue, a reply linking to it now, and another with the pull request later.
 */
export async function runIssueCommand(params: {
  deps: WebhookDeps;
  octokit: InstallationOctokit;
  command: IssueCommand;
}): Promise<HandlerResult> {
  const { deps, octokit, command } = params;
  const { db, clock, config } = deps;
  const project = await findProjectByRepository(db, command.repository);
  if (!project || project.disabledAt) return ignored('the repository is not an enabled Scribe project');
  if (!(await hasWriteAccess({ octokit, repository: command.repository, username: command.author })))
    return ignored(`${command.author} has no write access`);
  if (!command.instruction) return ignored('mention without an instruction');
  // Processing is at-least-once: a retried delivery of this comment finds what its first attempt started.
  const earlier = await findTriggerByComment(db, command.repository, command.commentId);
  if (earlier) return done(`comment already became message ${earlier.seq} of job ${earlier.jobId}`);
  const reply = (body: string) =>
    postReply({
      octokit,
      repository: command.repository,
      issueNumber: command.issue.number,
      reviewCommentId: null,
      body,
    });
  const prompt = issueCommandPrompt({
    instruction: command.instruction,
    repository: command.repository,
    ...command.issue,
  });
  let job: JobRecord;
  try {
    job = await deps.jobs.create({
      project,
      prompt,
      branchFrom: command.instruction,
      requestKey: commentRequestKey(command, 'issue'),
      // Acknowledged before this process's worker is woken, so the link comes before the result on a fast run.
      beforeWake: async (created) => {
        await saveTrigger({
          db,
          clock,
          trigger: {
            jobId: created.id,
            seq: 1,
            kind: 'command',
            repository: command.repository,
            installationId: command.installationId,
            issueNumber: command.issue.number,
            reviewCommentId: null,
            path: null,
            line: null,
            commentId: command.commentId,
            author: command.author,
          },
        });
        await reply(
          commandAcceptedText({ author: command.author, jobId: created.id, jobUrl: jobUrl(config.jobs, created) }),
        );
      },
    });
  } catch (err) {
    const refused = refusal(command.author, err);
    if (!refused) throw err;
    await reply(refused.reply);
    return done(refused.outcome);
  }
  return done(`job ${job.id} created`);
}
