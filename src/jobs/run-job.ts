import type Anthropic from '@anthropic-ai/sdk';
import type { Db } from '../db/client.js';
import type { JobsConfig } from '../config.js';
import { runAgent as defaultRunAgent } from '../agent/run-agent.js';
import type { AgentEvent, AgentLimits } from '../agent/types.js';
import { findProject } from '../projects/projects.js';
import type { GitHubApp } from '../github/github-app.js';
import { openOrUpdatePullRequest, pullRequestText } from '../github/pull-request.js';
import { cloneRepository, commitAll, createWorkspaceDir, pushBranch, remoteBranchExists, removeWorkspace } from '../git/workspace.js';
import { listMessages, type JobRecord } from './job-store.js';
import { describeFailure, JobFailure } from './job-failure.js';
import type { JobStage, StopReason } from './job-status.js';

export interface RunOutcome {
  handledSeq: number;
  prNumber: number | null;
  prLink: string | null;
  title: string | null;
  summary: string | null;
}

export type EmitEvent = (type: string, data?: Record<string, unknown>) => Promise<void>;

/** Runs one claimed job to a pull request (or to nothing to change); throws a JobFailure. */
export type JobRunner = (params: { job: JobRecord; signal: AbortSignal; emit: EmitEvent }) => Promise<RunOutcome>;

export interface JobRunnerDeps {
  db: Db;
  github: GitHubApp;
  anthropic: Anthropic;
  jobs: JobsConfig;
  runAgent?: typeof defaultRunAgent;
  /** extra context for the message a run carries out (e.g. the file and line of the review comment it came from) */
  messageContext?: (job: JobRecord, seq: number) => Promise<string | null>;
  /** whether the message came from a GitHub comment that gets its own reply (so no separate follow-up comment) */
  answeredOnGitHub?: (job: JobRecord, seq: number) => Promise<boolean>;
}

const MAX_EVENT_TEXT = 2000;

export function agentLimits(jobs: JobsConfig): AgentLimits {
  return {
    maxTurns: jobs.maxTurns,
    maxOutputTokensPerTurn: jobs.maxOutputTokensPerTurn,
    maxTotalTokens: jobs.maxTotalTokens,
    maxWallMs: jobs.timeoutMs,
    maxRepairRounds: jobs.maxRepairRounds,
  };
}

export function jobUrl(jobs: JobsConfig, job: JobRecord): string | null {
  return jobs.publicUrl ? `${jobs.publicUrl}/v2/agent/${job.projectId}/job/${job.id}` : null;
}

function agentContext(job: JobRecord, onBranch: boolean, prompts: string[], extra: string | null): string {
  const lines = [`Repository: ${job.repository}. Your edits become commits on branch ${job.branch}, proposed as a pull request against ${job.baseRef}.`];
  if (onBranch && prompts.length > 1) {
    lines.push('The working tree already holds the commits made for the earlier instructions; carry out the last instruction on top of them.');
  }
  if (extra) lines.push(extra);
  return lines.join('\n');
}

export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  const runAgent = deps.runAgent ?? defaultRunAgent;
  return async ({ job, signal, emit }) => {
    const { db, github } = deps;
    const messages = await listMessages(db, job.id);
    const prompts = messages.map((m) => m.prompt);
    const handledSeq = messages.at(-1)?.seq ?? job.handledSeq;
    const [owner, repo] = job.repository.split('/');
    let stage: JobStage = 'github';
    const enter = async (next: JobStage, data: Record<string, unknown> = {}) => {
      stage = next;
      await emit('stage', { stage: next, ...data });
    };
    const dir = await createWorkspaceDir();
    try {
      await enter('github');
      const project = await findProject(db, job.projectId);
      if (project?.disabledAt) {
        throw new JobFailure('github', `The project for ${job.repository} is disabled: ${project.disabledReason ?? 'an operator disabled it'}. Install the GitHub App on the repository again to use it`);
      }
      const installationId = await github.installationFor(job.repository, project?.installationId ?? null);
      const octokit = await github.octokit(installationId);
      // Independent round trips, side by side: the access check, the bot identity (cached after the first job) and
      // the token the clone uses, minted here, a moment before the clone.
      const [, identity, cloneToken] = await Promise.all([octokit.rest.repos.get({ owner, repo }), github.botIdentity(octokit), github.freshToken(installationId)]);

      await enter('clone');
      const url = github.gitUrl(job.repository);
      // The branch may exist after an earlier run of this job (a follow-up, or a run resumed after a crash): work
      // on top of it so earlier commits are kept and a push is a fast-forward. A first attempt cannot have one.
      const mayHaveBranch = job.runsCompleted > 0 || job.attempts > 1;
      const onBranch = mayHaveBranch && (await remoteBranchExists({ url, branch: job.branch, token: cloneToken, signal }));
      const ref = onBranch ? job.branch : job.baseRef;
      const started = Date.now();
      // Pushes go to HEAD:refs/heads/<branch>, so the clone needs no local branch of that name.
      await cloneRepository({ url, ref, dir, token: cloneToken, identity, signal });
      await emit('cloned', { ref, ms: Date.now() - started });

      await enter('agent', { model: job.model });
      const result = await runAgent({
        workspaceDir: dir,
        instructions: prompts,
        context: agentContext(job, onBranch, prompts, (await deps.messageContext?.(job, handledSeq)) ?? null),
        model: job.model,
        client: deps.anthropic,
        limits: agentLimits(deps.jobs),
        signal,
        onEvent: (event) => recordAgentEvent(emit, event),
      });

      // From here on a shutdown lets the run finish (commit, push and pull request take seconds), so the process
      // never hands back a job whose edits may already be pushed; an archive or a lost lease still stops it.
      if (signal.aborted && signal.reason !== ('shutdown' satisfies StopReason)) throw new JobFailure('agent', 'The run was stopped');
      await enter('commit');
      // The push token is minted while git commits; it is used within the second.
      const pushToken = github.freshToken(installationId);
      pushToken.catch(() => undefined);
      const sha = await commitAll({ dir, message: `${result.title || 'Documentation update'}\n\n${result.summary}\n\nScribe-Job: ${job.id}` });
      await emit(sha ? 'committed' : 'no_changes', sha ? { sha } : {});
      if (!sha && !onBranch) return { handledSeq, prNumber: job.prNumber, prLink: job.prLink, title: result.title, summary: result.summary };

      if (sha) {
        await enter('push', { branch: job.branch });
        if (signal.aborted && signal.reason !== ('shutdown' satisfies StopReason)) throw new JobFailure('push', 'The run was stopped');
        await pushBranch({ dir, url, branch: job.branch, token: await pushToken });
      }

      await enter('pull_request');
      const text = pullRequestText({ title: job.title ?? result.title, summary: result.summary, prompts, jobId: job.id, jobUrl: jobUrl(deps.jobs, job) });
      const announce = prompts.length > 1 && sha && !(await deps.answeredOnGitHub?.(job, handledSeq));
      const followUp = announce ? `Follow-up from Scribe job \`${job.id}\`:\n\n> ${prompts.at(-1)!.trim().replace(/\n/g, '\n> ')}\n\n${result.summary}` : undefined;
      const pr = await openOrUpdatePullRequest({ octokit, repository: job.repository, base: job.baseRef, head: job.branch, text, draft: job.draft, comment: followUp, mayExist: onBranch });
      await emit('pull_request', { number: pr.number, url: pr.url, created: pr.created });
      return { handledSeq, prNumber: pr.number, prLink: pr.url, title: job.title ?? result.title, summary: result.summary };
    } catch (err) {
      throw describeFailure(err, stage, { repository: job.repository, baseRef: job.baseRef, branch: job.branch });
    } finally {
      await removeWorkspace(dir);
    }
  };
}

/** Agent events go to the job's log; a `turn` event's usage is summed on the job by the log itself. */
function recordAgentEvent(emit: EmitEvent, event: AgentEvent): Promise<void> {
  const { type, ...data } = event.type === 'text' ? { ...event, text: event.text.slice(0, MAX_EVENT_TEXT) } : event;
  return emit(type, data);
}
