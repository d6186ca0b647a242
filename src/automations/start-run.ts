import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { Project } from '../projects/projects.js';
import { statusOf, type GitHubApp } from '../github/github-app.js';
import type { JobRequests } from '../jobs/job-requests.js';
import { getJob, type JobRecord } from '../jobs/job-store.js';
import { DomainError } from '../errors.js';
import { gitHubFailure } from '../github/github-failure.js';
import type { Automation } from './parse-config.js';
import {
  adoptStalledRun,
  claimRun,
  lastJobRun,
  runningRunsOfJob,
  updateRun,
  type AutomationRun,
  type RunCap,
  type RunTrigger,
} from './run-store.js';

export interface RunRequest {
  trigger: RunTrigger;
  /** one run per key: the push's after-sha, the schedule's slot, a manual request's id, a page's feedback window */
  dedupeKey: string;
  repository?: string;
  beforeSha?: string;
  afterSha?: string;
  pullNumber?: number;
  page?: string;
  feedbackThrough?: number | null;
  /** what the agent is told about the trigger (a push's commits and diff, a page's feedback), after the automation's prompt */
  change?: string;
  summary: string;
  /**
   * The caller retries on an error (a webhook delivery does): a run of this key that was claimed but never got its
   * job is taken over once stalled, and one that may still be getting it is an error, so the caller tries again.
   */
  retried?: boolean;
  /**
   * Which job carries the run out, when not the automation's own (its job while that job's pull request is open, a
   * new one otherwise): a docs draft's job, one per source pull request, or a new job of its own (`new`).
   */
  job?: { extend: string } | { new: { draft: boolean; branchFrom: string } };
  /** kept on a new job as what started it (the problems a problems run fixes) */
  cause?: unknown;
}

/** A claimed run with no job for this long was claimed by a process that died before it asked for the job. */
export const RUN_STALLED_AFTER_MS = 30_000;

/** The run of this key is being started by another process, or was moments ago by one that died: try again later. */
export class RunStarting extends Error {}

export interface StartRunDeps extends RunCap {
  db: Db;
  clock: Clock;
  github: GitHubApp;
  jobs: JobRequests;
}

/**
 * One run of an automation: claimed by its key (so a redelivery or another process starts nothing), skipped over the
 * daily cap (decided with the claim, so concurrent requests start exactly as many runs as the cap has room for), else
 * carried out by the automation's job — a follow-up on the job whose pull request is still open (or which has not
 * finished yet: the change is batched into its next run), a new job otherwise.
 * Returns null when the key was already claimed.
 */
export function startRun(
  deps: StartRunDeps,
  params: { project: Project; automation: Automation; request: RunRequest },
): Promise<AutomationRun | null> {
  // One at a time per automation in this process: of two runs asked for at once, the second sees the job the first
  // asked for and follows up on it (one pull request per automation) instead of opening a pull request of its own.
  return oneAtATime(`${params.project.id}/${params.automation.id}`, () => claimAndStart(deps, params));
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `task` after every earlier task of the same key has settled. */
function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
  const result = (queues.get(key) ?? Promise.resolve()).then(task);
  const settled = result.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return result;
}

async function claimAndStart(
  deps: StartRunDeps,
  params: { project: Project; automation: Automation; request: RunRequest },
): Promise<AutomationRun | null> {
  const { db, clock } = deps;
  const { project, automation, request } = params;
  const claimed = await claimRun({
    db,
    database: deps.database,
    runsPerDay: deps.runsPerDay,
    clock,
    run: {
      projectId: project.id,
      automationId: automation.id,
      dedupeKey: request.dedupeKey,
      trigger: request.trigger,
      repository: request.repository,
      beforeSha: request.beforeSha,
      afterSha: request.afterSha,
      pullNumber: request.pullNumber,
      page: request.page,
      feedbackThrough: request.feedbackThrough,
      change: request.change,
      summary: request.summary,
    },
  });
  const run =
    claimed ??
    (request.retried
      ? await adoptStalledRun({
          db,
          clock,
          key: { projectId: project.id, automationId: automation.id, dedupeKey: request.dedupeKey },
          stalledBefore: new Date(clock().getTime() - RUN_STALLED_AFTER_MS),
        })
      : null);
  if (run === 'starting')
    throw new RunStarting(`run ${request.dedupeKey} of ${automation.id} is still being started; try again`);
  if (!run || run.status === 'skipped') return run;
  try {
    const extend =
      request.job && 'new' in request.job
        ? null
        : request.job
          ? await getJob(db, project.id, request.job.extend)
          : await jobToExtend(deps, project, automation.id);
    if (extend) {
      // Changes of runs the job has not carried out yet travel with this message: the agent carries out the last one.
      const pending = (await runningRunsOfJob(db, extend.id)).filter(
        (r) => r.seq !== null && r.seq > extend.handledSeq && r.id !== run.id,
      );
      const prompt = runPrompt(automation, [...pending.map((r) => r.change), request.change]);
      const { seq } = await deps.jobs.followUp({
        projectId: project.id,
        jobId: extend.id,
        prompt,
        requestKey: runRequestKey(run.id),
      });
      return await updateRun({ db, clock, id: run.id, data: { jobId: extend.id, seq } });
    }
    const job = await deps.jobs.create({
      project,
      prompt: runPrompt(automation, [request.change]),
      branchFrom: request.job && 'new' in request.job ? request.job.new.branchFrom : `automation ${automation.id}`,
      draft: request.job && 'new' in request.job ? request.job.new.draft : automation.draft,
      requestKey: runRequestKey(run.id),
      cause: request.cause,
    });
    return await updateRun({ db, clock, id: run.id, data: { jobId: job.id, seq: 1 } });
  } catch (err) {
    if (!(err instanceof DomainError)) {
      await updateRun({
        db,
        clock,
        id: run.id,
        data: { status: 'failed', reason: (err as Error)?.message ?? String(err) },
      });
      // A GitHub read that failed (the state of the automation's last pull request) is answered as what it is, not
      // as a 500; anything else is thrown as it came.
      throw gitHubFailure(err, `the automation's last pull request in ${project.repository}`);
    }
    // Refused by the job service (rate limit, jobs not configured): recorded, never queued without bound.
    return updateRun({ db, clock, id: run.id, data: { status: 'skipped', reason: err.message } });
  }
}

/**
 * The job request a run makes: a run adopted after its starter died (between storing the job and recording it on
 * the run) finds the job or message the starter stored instead of asking for another.
 */
function runRequestKey(runId: string): string {
  return `automation run ${runId}`;
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
    const octokit = await deps.github.octokit(
      await deps.github.installationFor(job.repository, project.installationId),
    );
    const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: job.prNumber });
    return data.state === 'open' ? job : null;
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw err;
  }
}
