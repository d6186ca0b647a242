import { missingForAgentJobs } from '../../config.js';
import { createJob } from '../../jobs/job-store.js';
import { enforceJobRateLimit } from '../../jobs/rate-limit.js';
import { jobUrl } from '../../jobs/run-job.js';
import { branchName } from '../../git/branch-name.js';
import { findProjectByRepository } from '../../projects/projects.js';
import { RateLimited } from '../../errors.js';
import type { InstallationOctokit } from '../github-app.js';
import { hasWriteAccess } from '../has-write-access.js';
import { saveTrigger } from '../triggers.js';
import { postReply } from '../post-reply.js';
import { commandAcceptedText, issueCommandPrompt } from '../reply-text.js';
import type { Mention } from './comments.js';
import { done, ignored, type HandlerResult, type WebhookDeps } from './webhook-deps.js';

const MAX_PROMPT = 20_000;

export interface IssueCommand extends Mention {
  issue: { number: number; title: string; body: string };
}

/**
 * `@<slug> <instruction>` on an issue of a project's repository, by someone with write access: a new job whose
 * prompt is the instruction plus the issue, a reply linking to it now, and another with the pull request later.
 */
export async function runIssueCommand(params: { deps: WebhookDeps; octokit: InstallationOctokit; command: IssueCommand }): Promise<HandlerResult> {
  const { deps, octokit, command } = params;
  const { db, clock, config } = deps;
  const project = await findProjectByRepository(db, command.repository);
  if (!project || project.disabledAt) return ignored('the repository is not an enabled Scribe project');
  if (!(await hasWriteAccess({ octokit, repository: command.repository, username: command.author }))) return ignored(`${command.author} has no write access`);
  if (!command.instruction) return ignored('mention without an instruction');
  const reply = (body: string) => postReply({ octokit, repository: command.repository, issueNumber: command.issue.number, reviewCommentId: null, body });
  const missing = missingForAgentJobs(config);
  if (missing.length) {
    await reply(`@${command.author} Scribe cannot run jobs yet: its operator needs to ${missing.join(' and ')}.`);
    return done('refused: agent jobs are not configured');
  }
  try {
    await enforceJobRateLimit({ db, clock, projectId: project.id, perHour: config.jobs.ratePerHour });
  } catch (err) {
    if (!(err instanceof RateLimited)) throw err;
    await reply(`@${command.author} ${err.message}.`);
    return done(`refused: ${err.message}`);
  }
  const prompt = issueCommandPrompt({ instruction: command.instruction, repository: command.repository, ...command.issue }).slice(0, MAX_PROMPT);
  const job = await createJob({
    db,
    clock,
    projectId: project.id,
    repository: project.repository,
    baseRef: project.ref,
    branch: (id) => branchName(id, command.instruction),
    model: config.jobs.models[0],
    draft: false,
    prompt,
  });
  await saveTrigger({
    db,
    clock,
    trigger: {
      jobId: job.id,
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
  // Acknowledged before this process's worker is woken, so the link comes before the result on a fast run.
  await reply(commandAcceptedText({ author: command.author, jobId: job.id, jobUrl: jobUrl(config.jobs, job) }));
  deps.wakeWorker();
  return done(`job ${job.id} created`);
}
