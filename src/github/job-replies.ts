import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { JobsConfig } from '../config.js';
import { appendEvent, listEvents, listMessages, type JobRecord } from '../jobs/job-store.js';
import { jobUrl, type EmitEvent, type JobRunner, type RunOutcome } from '../jobs/run-job.js';
import type { AgentJobHooks } from '../jobs/start-agent-jobs.js';
import { findProject } from '../projects/projects.js';
import type { GitHubApp } from './github-app.js';
import { claimReply, findTrigger, pendingTriggers, type Trigger } from './triggers.js';
import { postReply } from './post-reply.js';
import { pullRequestStates } from './pull-request-state.js';
import { archivedText, runReplyText } from './reply-text.js';
import type { BackgroundTasks } from './background-tasks.js';

interface RepliesDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  jobs: JobsConfig;
  github: GitHubApp;
  tasks: BackgroundTasks;
}

type RunEnd = { outcome: RunOutcome; sha: string | null } | { error: string };

/**
 * The job side of the GitHub life cycle: answers the comments a run carried out once it ends, comments on the
 * open pull request of an archived job, and tells the agent where a review comment was left.
 */
export function createJobReplies(deps: RepliesDeps): Required<AgentJobHooks> {
  const { db, clock, logger } = deps;

  async function replyToRun(job: JobRecord, end: RunEnd): Promise<void> {
    const upto = 'outcome' in end ? end.outcome.handledSeq : ((await listMessages(db, job.id)).at(-1)?.seq ?? job.handledSeq);
    for (const trigger of await pendingTriggers(db, job.id, upto)) {
      // Claimed before posting: a reply may be lost to a crash in between, but is never posted twice.
      if (!(await claimReply({ db, clock, id: trigger.id }))) continue;
      const body = runReplyText({
        kind: trigger.kind,
        author: trigger.author,
        jobId: job.id,
        jobUrl: jobUrl(deps.jobs, job),
        ...('outcome' in end
          ? { finished: { sha: end.sha, branch: job.branch, prLink: end.outcome.prLink, summary: end.outcome.summary } }
          : { error: end.error }),
      });
      await postTo(trigger, body);
    }
  }

  async function postTo(trigger: Trigger, body: string): Promise<void> {
    const octokit = await deps.github.octokit(trigger.installationId);
    await postReply({ octokit, repository: trigger.repository, issueNumber: trigger.issueNumber, reviewCommentId: trigger.reviewCommentId, body });
  }

  const safely = (what: string, job: JobRecord, task: () => Promise<void>) =>
    task().catch((err: unknown) => logger.warn({ err, jobId: job.id }, `could not ${what} on GitHub`));

  return {
    wrapRunner(runner: JobRunner): JobRunner {
      return async (args) => {
        let sha: string | null = null;
        const emit: EmitEvent = async (type, data) => {
          if (type === 'committed') sha = typeof data?.sha === 'string' ? data.sha : null;
          await args.emit(type, data);
        };
        let outcome: RunOutcome;
        try {
          outcome = await runner({ ...args, emit });
        } catch (err) {
          // A stopped run (archived, shutting down, lease lost) is not a result: it resumes elsewhere or is over.
          if (!args.signal.aborted) await safely('reply', args.job, () => replyToRun(args.job, { error: (err as Error)?.message ?? String(err) }));
          throw err;
        }
        await safely('reply', args.job, () => replyToRun(args.job, { outcome, sha }));
        return outcome;
      };
    },

    onArchived(job: JobRecord): void {
      deps.tasks.run('archive comment', () => safely('comment on the archived job', job, () => commentOnArchive(job)));
    },

    async answeredOnGitHub(job: JobRecord, seq: number): Promise<boolean> {
      return (await findTrigger(db, job.id, seq)) !== null;
    },

    async messageContext(job: JobRecord, seq: number): Promise<string | null> {
      const trigger = await findTrigger(db, job.id, seq);
      if (!trigger?.path) return null;
      const where = trigger.line ? `${trigger.path}, line ${trigger.line}` : trigger.path;
      return `The instruction is a review comment on the pull request, left on ${where} (line numbers are those of the branch). Start from that place.`;
    },
  };

  async function commentOnArchive(job: JobRecord): Promise<void> {
    if (!job.prNumber) return;
    if ((await pullRequestStates(db, [job])).get(job.id)?.state === 'closed') return;
    // Archiving is idempotent; the comment is not repeated.
    if ((await listEvents({ db, jobId: job.id, limit: 100_000 })).some((e) => e.type === 'pull_request_comment' && e.reason === 'archived')) return;
    const project = await findProject(db, job.projectId);
    const octokit = await deps.github.octokit(await deps.github.installationFor(job.repository, project?.installationId ?? null));
    const [owner, repo] = job.repository.split('/');
    const { data: pr } = await octokit.rest.pulls.get({ owner, repo, pull_number: job.prNumber });
    if (pr.state !== 'open') return;
    await appendEvent({ db, clock, jobId: job.id, type: 'pull_request_comment', data: { reason: 'archived', number: job.prNumber } });
    await octokit.rest.issues.createComment({ owner, repo, issue_number: job.prNumber, body: archivedText({ jobId: job.id, jobUrl: jobUrl(deps.jobs, job) }) });
  }
}
