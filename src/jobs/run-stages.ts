import type { AgentResult } from '../agent/types.js';
import { findProject } from '../projects/projects.js';
import type { BotIdentity, InstallationOctokit } from '../github/github-app.js';
import { openOrUpdatePullRequest, pullRequestText } from '../github/pull-request.js';
import { cloneRepository, commitAll, pushBranch, remoteBranchExists } from '../git/workspace.js';
import type { JobRecord } from './job-store.js';
import { JobFailure } from './job-failure.js';
import type { JobStage, StopReason } from './job-status.js';
import { jobUrl } from './job-url.js';
import type { EmitEvent, JobRunnerDeps } from './run-types.js';

/** What every stage of one run reads: the job, the messages it carries out and where its clone lives. */
export interface Run {
  deps: JobRunnerDeps;
  job: JobRecord;
  signal: AbortSignal;
  emit: EmitEvent;
  dir: string;
  prompts: string[];
  /** the last message this run carries out */
  handledSeq: number;
}

/** Stage `github`: the project, the installation that reaches the repository, and what the clone needs. */
export interface Access {
  installationId: number;
  octokit: InstallationOctokit;
  identity: BotIdentity;
  cloneToken: string;
}

export async function reachRepository(run: Run): Promise<Access> {
  const { deps, job } = run;
  const { github } = deps;
  const project = await findProject(deps.db, job.projectId);
  if (project?.disabledAt) {
    throw new JobFailure(
      'github',
      `The project for ${job.repository} is disabled: ${project.disabledReason ?? 'an operator disabled it'}. Install the GitHub App on the repository again to use it`,
    );
  }
  const installationId = await github.installationFor(job.repository, project?.installationId ?? null);
  const octokit = await github.octokit(installationId);
  const [owner, repo] = job.repository.split('/');
  // Independent round trips, side by side: the access check, the bot identity (cached after the first job) and
  // the token the clone uses, minted here, a moment before the clone.
  const [, identity, cloneToken] = await Promise.all([
    octokit.rest.repos.get({ owner, repo }),
    github.botIdentity(octokit),
    github.freshToken(installationId),
  ]);
  return { installationId, octokit, identity, cloneToken };
}

/** Stage `clone`: the job's branch when an earlier run pushed it, else the base ref. */
export interface Checkout {
  url: string;
  onBranch: boolean;
}

export async function cloneForRun(run: Run, access: Access): Promise<Checkout> {
  const { job, signal, dir } = run;
  const url = run.deps.github.gitUrl(job.repository);
  // The branch may exist after an earlier run of this job (a follow-up, or a run resumed after a crash): work
  // on top of it so earlier commits are kept and a push is a fast-forward. A first attempt cannot have one.
  const mayHaveBranch = job.runsCompleted > 0 || job.attempts > 1;
  const onBranch =
    mayHaveBranch && (await remoteBranchExists({ url, branch: job.branch, token: access.cloneToken, signal }));
  const ref = onBranch ? job.branch : job.baseRef;
  const started = Date.now();
  // Pushes go to HEAD:refs/heads/<branch>, so the clone needs no local branch of that name.
  await cloneRepository({ url, ref, dir, token: access.cloneToken, identity: access.identity, signal });
  await run.emit('cloned', { ref, ms: Date.now() - started });
  return { url, onBranch };
}

/**
 * From the end of the agent on, a shutdown lets the run finish (commit, push and pull request take seconds), so the
 * process never hands back a job whose edits may already be pushed; an archive or a lost lease still stops it.
 */
export function stopUnlessShuttingDown(signal: AbortSignal, stage: JobStage): void {
  if (signal.aborted && signal.reason !== ('shutdown' satisfies StopReason))
    throw new JobFailure(stage, 'The run was stopped');
}

/** Stage `commit`: the agent's edits as one commit; null when it changed nothing. The push token is minted meanwhile. */
export async function commitEdits(
  run: Run,
  access: Access,
  result: AgentResult,
): Promise<{ sha: string | null; pushToken: Promise<string> }> {
  const pushToken = run.deps.github.freshToken(access.installationId);
  pushToken.catch(() => undefined);
  const sha = await commitAll({
    dir: run.dir,
    message: `${result.title || 'Documentation update'}\n\n${result.summary}\n\nScribe-Job: ${run.job.id}`,
  });
  await run.emit(sha ? 'committed' : 'no_changes', sha ? { sha } : {});
  return { sha, pushToken };
}

/** Stage `push`: the branch, fast-forwarded; the token was minted during the commit and is used within the second. */
export async function pushEdits(run: Run, checkout: Checkout, pushToken: Promise<string>): Promise<void> {
  stopUnlessShuttingDown(run.signal, 'push');
  await pushBranch({ dir: run.dir, url: checkout.url, branch: run.job.branch, token: await pushToken });
}

/** Stage `pull_request`: opens it, or refreshes the open one (with a comment for a follow-up GitHub did not ask for). */
export async function proposeEdits(
  run: Run,
  access: Access,
  checkout: Checkout,
  edits: { sha: string | null; result: AgentResult },
): Promise<{ number: number; url: string }> {
  const { deps, job, prompts, handledSeq } = run;
  const { result } = edits;
  const notes = (await deps.hooks?.pullRequestNotes?.(job)) ?? null;
  const text = pullRequestText({
    title: job.title ?? result.title,
    summary: result.summary,
    prompts,
    notes,
    jobId: job.id,
    jobUrl: jobUrl(deps.jobs, job),
  });
  const announce =
    !notes && prompts.length > 1 && edits.sha && !(await deps.hooks?.answeredOnGitHub?.(job, handledSeq));
  const followUp = announce
    ? `Follow-up from Scribe job \`${job.id}\`:\n\n> ${prompts.at(-1)!.trim().replace(/\n/g, '\n> ')}\n\n${result.summary}`
    : undefined;
  const pr = await openOrUpdatePullRequest({
    octokit: access.octokit,
    repository: job.repository,
    base: job.baseRef,
    head: job.branch,
    text,
    draft: job.draft,
    comment: followUp,
    mayExist: checkout.onBranch,
  });
  await run.emit('pull_request', { number: pr.number, url: pr.url, created: pr.created });
  return pr;
}
