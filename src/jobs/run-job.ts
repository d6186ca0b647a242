import type { JobsConfig } from '../config.js';
import { runAgent as defaultRunAgent } from '../agent/run-agent.js';
import type { AgentEvent, AgentLimits, AgentResult } from '../agent/types.js';
import { checkoutCommit, createWorkspaceDir, removeWorkspace } from '../git/workspace.js';
import { listMessages, type JobRecord } from './job-store.js';
import { describeFailure } from './job-failure.js';
import type { JobStage } from './job-status.js';
import type { EmitEvent, JobRunner, JobRunnerDeps } from './run-types.js';
import {
  cloneForRun,
  commitEdits,
  proposeEdits,
  pushEdits,
  reachRepository,
  stopUnlessShuttingDown,
  type Checkout,
  type Run,
} from './run-stages.js';

const MAX_EVENT_TEXT = 2000;

function agentLimits(jobs: JobsConfig): AgentLimits {
  return {
    maxTurns: jobs.maxTurns,
    maxOutputTokensPerTurn: jobs.maxOutputTokensPerTurn,
    maxTotalTokens: jobs.maxTotalTokens,
    maxWallMs: jobs.timeoutMs,
    maxRepairRounds: jobs.maxRepairRounds,
  };
}

function agentContext(job: JobRecord, onBranch: boolean, prompts: string[], extra: string | null): string {
  const lines = [
    `Repository: ${job.repository}. Your edits become commits on branch ${job.branch}, proposed as a pull request against ${job.baseRef}.`,
  ];
  if (onBranch && prompts.length > 1) {
    lines.push(
      'The working tree already holds the commits made for the earlier instructions; carry out the last instruction on top of them.',
    );
  }
  if (extra) lines.push(extra);
  return lines.join('\n');
}

/** Stage `agent`: the model edits the clone, carrying out the last message with the earlier ones as history. */
async function editWithAgent(run: Run, checkout: Checkout, source: AgentSource | undefined): Promise<AgentResult> {
  const { deps, job } = run;
  const runAgent = deps.runAgent ?? defaultRunAgent;
  return runAgent({
    workspaceDir: run.dir,
    source,
    instructions: run.prompts,
    context: agentContext(
      job,
      checkout.onBranch,
      run.prompts,
      (await deps.hooks?.messageContext?.(job, run.handledSeq)) ?? null,
    ),
    model: job.model,
    client: deps.anthropic,
    limits: agentLimits(deps.jobs),
    signal: run.signal,
    onEvent: (event) => recordAgentEvent(run.emit, event),
  });
}

type AgentSource = { dir: string; label: string };

/**
 * Stage `source`: the run's source repository at its commit, cloned apart from the docs clone through the App's
 * installation on that repository (a fresh token, as for the docs clone); read-only to the agent, never committed.
 */
async function cloneSource(run: Run, source: { repository: string; sha: string }, dir: string): Promise<AgentSource> {
  const { github } = run.deps;
  const token = await github.freshToken(await github.installationFor(source.repository, null));
  await checkoutCommit({ url: github.gitUrl(source.repository), sha: source.sha, dir, token, signal: run.signal });
  await run.emit('source_cloned', { repository: source.repository, sha: source.sha });
  return { dir, label: `${source.repository} at ${source.sha.slice(0, 7)}` };
}

/**
 * A run as a pipeline of stages (github → clone → agent → commit → push → pull_request), each announced in the
 * job's events; whatever a stage throws becomes a JobFailure naming that stage.
 */
export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  return async ({ job, signal, emit }) => {
    const messages = await listMessages(deps.db, job.id);
    let current: JobStage = 'github';
    const stage = async <T>(name: JobStage, work: () => Promise<T>, data: Record<string, unknown> = {}): Promise<T> => {
      current = name;
      await emit('stage', { stage: name, ...data });
      return work();
    };
    const run: Run = {
      deps,
      job,
      signal,
      emit,
      dir: await createWorkspaceDir(),
      prompts: messages.map((m) => m.prompt),
      handledSeq: messages.at(-1)?.seq ?? job.handledSeq,
    };
    let sourceDir: string | undefined;
    try {
      const access = await stage('github', () => reachRepository(run));
      const checkout = await stage('clone', () => cloneForRun(run, access));
      const wanted = await deps.hooks?.sourceFor?.(job);
      sourceDir = wanted ? await createWorkspaceDir() : undefined;
      const source =
        wanted && sourceDir
          ? await stage('clone', () => cloneSource(run, wanted, sourceDir!), { source: wanted.repository })
          : undefined;
      const result = await stage('agent', () => editWithAgent(run, checkout, source), { model: job.model });
      stopUnlessShuttingDown(signal, 'agent');
      const { sha, pushToken } = await stage('commit', () => commitEdits(run, access, result));
      const outcome = { handledSeq: run.handledSeq, sha, title: job.title ?? result.title, summary: result.summary };
      if (!sha && !checkout.onBranch)
        return { ...outcome, title: result.title, prNumber: job.prNumber, prLink: job.prLink };
      if (sha) await stage('push', () => pushEdits(run, checkout, pushToken), { branch: job.branch });
      const pr = await stage('pull_request', () => proposeEdits(run, access, checkout, { sha, result }));
      return { ...outcome, prNumber: pr.number, prLink: pr.url };
    } catch (err) {
      throw describeFailure(err, current, { repository: job.repository, baseRef: job.baseRef, branch: job.branch });
    } finally {
      await removeWorkspace(run.dir);
      if (sourceDir) await removeWorkspace(sourceDir);
    }
  };
}

/** Agent events go to the job's log; a `turn` event's usage is summed on the job by the log itself. */
function recordAgentEvent(emit: EmitEvent, event: AgentEvent): Promise<void> {
  const { type, ...data } = event.type === 'text' ? { ...event, text: event.text.slice(0, MAX_EVENT_TEXT) } : event;
  return emit(type, data);
}
