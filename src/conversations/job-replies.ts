import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { JobsConfig } from '../config.js';
import { appendEvent, listEvents, listMessages, type JobRecord } from '../jobs/job-store.js';
import type { RunEnd } from '../jobs/run-types.js';
import { jobUrl } from '../jobs/job-url.js';
import { findProject } from '../projects/projects.js';
import type { GitHubApp } from '../github/github-app.js';
import { claimReply, findTrigger, pendingTriggers, type Trigger } from './triggers.js';
import { postReply } from './post-reply.js';
import { pullRequestStates } from '../github/pull-request-state.js';
import { archivedText, runReplyText } from './reply-text.js';
import type { BackgroundTasks } from '../github/background-tasks.js';
import type { JobRunHooks } from '../jobs/run-hooks.js';

interface RepliesDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  jobs: JobsConfig;
  github: GitHubApp;
  tasks: BackgroundTasks;
}

export interface JobReplies {
  /** answers the comments the run carried out (subscribed to the worker's run ends) */
  onRunEnd(end: RunEnd): Promise<void>;
  /** comments on the open pull request of an archived job */
  onArchived(job: JobRecord): void;
  /**
   * the job runner's questions about a message that came from GitHub: whether its comment gets its own reply, and
   * where a review comment was left, for the agent
   */
  runHooks: Pick<JobRunHooks, 'answeredOnGitHub' | 'messageContext'>;
}

/**
 * The job side of the GitHub life cycle: answers the comments a run carried out once it ends, comments on the
 * open pull request of an archived job, and tells the agent where a review comment was left.
 */
export function createJobReplies(deps: RepliesDeps): JobReplies {
  const safely = (what: string, job: JobRecord, task: () => Promise<void>) =>
    task().catch((err: unknown) => deps.logger.warn({ err, jobId: job.id }, `could not ${what} on GitHub`));
  return {
    onRunEnd: (end) => safely('reply', end.job, () => replyToRun(deps, end)),
    onArchived: (job) =>
      deps.tasks.run('archive comment', () =>
        safely('comment on the archived job', job, () => commentOnArchive(deps, job)),
      ),
    runHooks: {
      answeredOnGitHub: async (job, seq) => (await findTrigger(deps.db, job.id, seq)) !== null,
      async messageContext(job, seq) {
        const trigger = await findTrigger(deps.db, job.id, seq);
        if (!trigger?.path) return null;
        const where = trigger.line ? `${trigger.path}, line ${trigger.line}` : trigger.path;
        return `The instruction is a review comment on the pull request, left on ${where} (line numbers are those of the branch). Start from that place.`;
      },
    },
  };
}

/** Answers each comment the run carried out (up to the last message it handled) that is still owed a reply. */
async function replyToRun(deps: RepliesDeps, end: RunEnd): Promise<void> {
  const { db, clock } = deps;
  const { job } = end;
  const upto =
    'outcome' in end ? end.outcome.handledSeq : ((await listMessages(db, job.id)).at(-1)?.seq ?? job.handledSeq);
  for (const trigger of await pendingTriggers(db, job.id, upto)) {
    // Claimed before posting: a reply may be lost to a crash in between, but is never posted twice.
    if (!(await claimReply({ db, clock, id: trigger.id }))) continue;
    const body = runReplyText({
      kind: trigger.kind,
      author: trigger.author,
      jobId: job.id,
      jobUrl: jobUrl(deps.jobs, job),
      ...('outcome' in end
        ? {
            finished: {
              sha: end.outcome.sha,
              branch: job.branch,
              prLink: end.outcome.prLink,
              summary: end.outcome.summary,
            },
          }
        : { error: end.error }),
    });
    await postTo(deps, trigger, body);
  }
}

async function postTo(deps: RepliesDeps, trigger: Trigger, body: string): Promise<void> {
  const octokit = await deps.github.octokit(trigger.installationId);
  await postReply({
    octokit,
    repository: trigger.repository,
    issueNumber: trigger.issueNumber,
    reviewCommentId: trigger.reviewCommentId,
    body,
  });
}

/** Says on the job's open pull request that Scribe will not push to it again (once, however often it is archived). */
async function commentOnArchive(deps: RepliesDeps, job: JobRecord): Promise<void> {
  const { db, clock } = deps;
  if (!job.prNumber) return;
  if ((await pullRequestStates(db, [job])).get(job.id)?.state === 'closed') return;
  if (
    (await listEvents({ db, jobId: job.id, limit: 100_000 })).some(
      (e) => e.type === 'pull_request_comment' && e.reason === 'archived',
    )
  )
    return;
  const project = await findProject(db, job.projectId);
  const octokit = await deps.github.octokit(
    await deps.github.installationFor(job.repository, project?.installationId ?? null),
  );
  const [owner, repo] = job.repository.split('/');
  const { data: pr } = await octokit.rest.pulls.get({ owner, repo, pull_number: job.prNumber });
  if (pr.state !== 'open') return;
  await appendEvent({
    db,
    clock,
    jobId: job.id,
    type: 'pull_request_comment',
    data: { reason: 'archived', number: job.prNumber },
  });
  await octokit.rest.issues.createComment({
    owner,
    repo,
    issue_number: job.prNumber,
    body: archivedText({ jobId: job.id, jobUrl: jobUrl(deps.jobs, job) }),
  });
}
