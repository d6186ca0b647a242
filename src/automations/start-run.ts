import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { Project } from '../projects/projects.js';
import { statusOf, type GitHubApp } from '../github/github-app.js';
import type { JobRequests } from '../jobs/job-requests.js';
import { getJob, type JobRecord } from '../jobs/job-store.js';
import { DomainError } from '../errors.js';
import type { Automation } from './parse-config.js';
import { claimRun, countRunsSince, lastJobRun, runningRunsOfJob, updateRun, type AutomationRun, type RunTrigger } from './run-store.js';

const DAY_MS = 24 * 3_600_000;

export interface RunRequest {
  trigger: RunTrigger;
  /** one run per key: the push's after-sha, the schedule's slot, a manual request's id, a page's feedback window */
  dedupeKey: string;
  repository?: string;
  beforeSha?: string;
  afterSha?: string;
  page?: string;
  feedbackThrough?: number | null;
  /** what the agent is told about the trigger (a push's commits and diff, a page's feedback), after the automation's prompt */
  change?: string;
  summary: string;
}

export interface StartRunDeps {
  db: Db;
  clock: Clock;
  github: GitHubApp;
  jobs: JobRequests;
  runsPerDay: number;
}

/**
 * One run of an automation: claimed by its key (so a redelivery or another process starts nothing), skipped over the
 * daily cap, else carried out by the automation's job — a follow-up on the job whose pull request is still open
 * (or which has not finished yet: the change is batched into its next run), a new job otherwise.
 * Returns null when the key was already claimed.
 */
export async function startRun(deps: StartRunDeps, params: { project: Project; automation: Automation; request: RunRequest }): Promise<AutomationRun | null> {
  const { db, clock } = deps;
  const { project, automation, request } = params;
  const run = await claimRun({
    db,
    clock,
    run: {
      projectId: project.id,
      automationId: automation.id,
      dedupeKey: request.dedupeKey,
      trigger: request.trigger,
      repository: request.repository,
      beforeSha: request.beforeSha,
      afterSha: request.afterSha,
      page: request.page,
      feedbackThrough: request.feedbackThrough,
      change: request.change,
      summary: request.summary,
    },
  });
  if (!run) return null;
  const today = await countRunsSince({ db, projectId: project.id, automationId: automation.id, since: new Date(clock().getTime() - DAY_MS) });
  if (today > deps.runsPerDay) {
    return updateRun({ db, clock, id: run.id, data: { status: 'skipped', reason: `over the daily cap of ${deps.runsPerDay} runs for this automation (AUTOMATION_RUNS_PER_DAY)` } });
  }
  try {
    const extend = await jobToExtend(deps, project, automation.id);
    if (extend) {
      // Changes of runs the job has not carried out yet travel with this message: the agent carries out the last one.
      const pending = (await runningRunsOfJob(db, extend.id)).filter((r) => r.seq !== null && r.seq > extend.handledSeq && r.id !== run.id);
      const prompt = runPrompt(automation, [...pending.map((r) => r.change), request.change]);
      const { seq } = await deps.jobs.followUp({ projectId: project.id, jobId: extend.id, prompt });
      return await updateRun({ db, clock, id: run.id, data: { jobId: extend.id, seq } });
    }
    const job = await deps.jobs.create({ project, prompt: runPrompt(automation, [request.change]), branchFrom: `automation ${automation.id}`, draft: automation.draft });
    return await updateRun({ db, clock, id: run.id, data: { jobId: job.id, seq: 1 } });
  } catch (err) {
    if (!(err instanceof DomainError)) {
      await updateRun({ db, clock, id: run.id, data: { status: 'failed', reason: (err as Error)?.message ?? String(err) } });
      throw err;
    }
    // Refused by the job service (rate limit, jobs not configured): recorded, never queued without bound.
    return updateRun({ db, clock, id: run.id, data: { status: 'skipped', reason: err.message } });
  }
}

function runPrompt(automation: Automation, changes: (string | null | undefined)[]): string {
  return [automation.prompt, ...changes.filter((c): c is string => !!c)].join('\n\n');
}

/** The automation's job that later runs add to: one still running or queued, or one whose pull request is open on GitHub. */
async function jobToExtend(deps: StartRunDeps, project: Project, automationId: string): Promise<JobRecord | null> {
  const last = await lastJobRun(deps.db, project.id, automationId);
  if (!last?.jobId) return null;
  const job = await getJob(deps.db, project.id, last.jobId).catch(() => null);
  if (!job || job.status === 'archived') return null;
  if (job.status === 'active') return job;
  if (job.prNumber === null) return null;
  const [owner, repo] = job.repository.split('/');
  try {
    const octokit = await deps.github.octokit(await deps.github.installationFor(job.repository, project.installationId));
    const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: job.prNumber });
    return data.state === 'open' ? job : null;
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw err;
  }
}
