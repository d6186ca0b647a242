import picomatch from 'picomatch';
import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { NotFound } from '../errors.js';
import { randomId } from '../ids.js';
import { findProject, getProject, listProjects } from '../projects/projects.js';
import type { GitHubApp } from '../github/github-app.js';
import type { JobRequests } from '../jobs/job-requests.js';
import type { JobRecord } from '../jobs/job-store.js';
import type { RunEnd } from '../jobs/run-types.js';
import { findConfig, listConfigs, type LoadedConfig } from './config-store.js';
import { loadAutomationsConfig } from './load-config.js';
import { changeSummary, describeChange } from './describe-change.js';
import { fetchPushChange } from './fetch-push-change.js';
import { startRun } from './start-run.js';
import { startFeedbackRuns, type FeedbackReader } from './feedback-runs.js';
import type { FeedbackStored } from '../analytics/feedback/reader-signals.js';
import { listRuns, runExists, runningRunsOfJob, runsOfJob, updateRun, type AutomationRun } from './run-store.js';

/** A push as the webhook handler hands it over. */
export interface Push {
  repository: string;
  branch: string;
  defaultBranch: string;
  before: string;
  after: string;
  /** the push's last commit that changed .scribe/automations.yml: config problems are reported on it */
  configCommit?: string;
}

export interface Automations {
  /** a push: reloads the config of docs projects whose default branch it is, starts the automations it matches */
  onPush(push: Push): Promise<string>;
  /** the project's automations and config problems, read from GitHub the first time */
  config(projectId: string): Promise<LoadedConfig>;
  /** feedback was stored: starts the feedback automations whose trigger a page now meets (once per window of feedback) */
  onFeedback(stored: FeedbackStored): Promise<AutomationRun[]>;
  trigger(projectId: string, automationId: string): Promise<AutomationRun>;
  /** runs a schedule's slot once across processes; null when the slot was already claimed */
  runSlot(params: { projectId: string; automationId: string; slot: Date }): Promise<AutomationRun | null>;
  /**
   * every project's loaded config; a project never read yet (installed, no push to its default branch since) is
   * read first, so its schedules run without waiting for a push
   */
  configs(): Promise<LoadedConfig[]>;
  runs(params: { projectId: string; automationId?: string; limit: number; offset: number }): Promise<{ runs: AutomationRun[]; total: number }>;
  /** subscribed to the worker's run ends: settles the runs the job carried out */
  onRunEnd(end: RunEnd): Promise<void>;
  /** for the job runner: the source repository and commit of the job's latest push run, read-only context for the agent */
  sourceFor(job: JobRecord): Promise<{ repository: string; sha: string } | null>;
  /** for the job runner: the running list of source changes an automation's pull request covers */
  pullRequestNotes(job: JobRecord): Promise<string | null>;
}

export function createAutomations(params: { db: Db; clock: Clock; logger: Logger; github: GitHubApp; jobs: JobRequests; runsPerDay: number; feedback: FeedbackReader }): Automations {
  const { db, clock, logger, github } = params;
  const deps = { db, clock, github, jobs: params.jobs, runsPerDay: params.runsPerDay };

  const config = async (projectId: string) => {
    const project = await getProject(db, projectId);
    return (await findConfig(db, projectId)) ?? loadAutomationsConfig({ db, clock, logger, github, project });
  };

  return {
    async onPush(push) {
      const said: string[] = [];
      for (const project of await listProjects(db)) {
        if (project.disabledAt || project.repository.toLowerCase() !== push.repository.toLowerCase() || push.branch !== push.defaultBranch) continue;
        const loaded = await loadAutomationsConfig({ db, clock, logger, github, project, sha: push.after, reportOn: push.configCommit });
        said.push(`config of ${project.id} reloaded (${loaded.automations.length} loaded, ${loaded.problems.length} problems)`);
      }
      const matching = (await listConfigs(db)).flatMap((c) =>
        c.automations
          .filter((a) => a.on.kind === 'push' && a.on.repository.toLowerCase() === push.repository.toLowerCase() && (a.on.branches ?? [push.defaultBranch]).includes(push.branch))
          .map((automation) => ({ projectId: c.projectId, automation })),
      );
      if (!matching.length) return said.concat('no automation follows this push').join('; ');
      const octokit = await github.octokit(await github.installationFor(push.repository, null));
      const change = await fetchPushChange({ octokit, ...push, webBase: github.repositoryUrl('').replace(/\/$/, '') });
      for (const { projectId, automation } of matching) {
        if (automation.on.kind !== 'push') continue;
        const paths = automation.on.paths;
        if (paths && !change.files.some((f) => picomatch.isMatch(f.filename, paths, { dot: true }))) {
          said.push(`${automation.id}: no changed file matches its paths`);
          continue;
        }
        const project = await findProject(db, projectId);
        if (!project || project.disabledAt) continue;
        const run = await startRun(deps, {
          project,
          automation,
          request: { trigger: 'push', dedupeKey: `push:${push.repository}:${push.branch}:${push.after}`, repository: push.repository, beforeSha: push.before, afterSha: push.after, change: describeChange(change), summary: changeSummary(change) },
        });
        said.push(run ? `${automation.id}: run ${run.id} ${run.status}${run.jobId ? ` (job ${run.jobId})` : ''}` : `${automation.id}: this push already started a run`);
      }
      return said.join('; ');
    },

    config,

    async onFeedback(stored) {
      const runs = await startFeedbackRuns({ ...deps, feedback: params.feedback }, stored);
      for (const run of runs) logger.info({ project: run.projectId, automation: run.automationId, run: run.id, page: run.page, status: run.status, job: run.jobId }, 'reader feedback started an automation run');
      return runs;
    },

    async trigger(projectId, automationId) {
      const loaded = await config(projectId);
      const automation = loaded.automations.find((a) => a.id === automationId);
      if (!automation) throw new NotFound(`No automation ${JSON.stringify(automationId)} is loaded for this project`);
      const project = await getProject(db, projectId);
      const at = clock().toISOString();
      const run = await startRun(deps, { project, automation, request: { trigger: 'manual', dedupeKey: `manual:${randomId('req')}`, summary: `Manual run at ${at}` } });
      return run!;
    },

    async runSlot({ projectId, automationId, slot }) {
      const dedupeKey = `schedule:${slot.toISOString()}`;
      // Most ticks find the slot already claimed: a read, not a refused insert.
      if (await runExists(db, projectId, automationId, dedupeKey)) return null;
      const automation = (await findConfig(db, projectId))?.automations.find((a) => a.id === automationId);
      const project = await findProject(db, projectId);
      if (!automation || !project || project.disabledAt) return null;
      return startRun(deps, { project, automation, request: { trigger: 'schedule', dedupeKey, summary: `Scheduled run for ${slot.toISOString()}` } });
    },

    async configs() {
      const loaded = await listConfigs(db);
      const known = new Set(loaded.map((c) => c.projectId));
      for (const project of await listProjects(db)) {
        if (known.has(project.id) || project.disabledAt) continue;
        try {
          loaded.push(await loadAutomationsConfig({ db, clock, logger, github, project }));
        } catch (err) {
          logger.warn({ err, project: project.id }, 'could not read the automations config; trying again at the next look');
        }
      }
      return loaded;
    },

    runs: (query) => listRuns({ db, ...query }),

    async onRunEnd(end) {
      const running = await runningRunsOfJob(db, end.job.id);
      if (!running.length) return;
      if ('error' in end) {
        for (const run of running) await updateRun({ db, clock, id: run.id, data: { status: 'failed', reason: end.error } });
        return;
      }
      const { outcome } = end;
      const carried = running.filter((r) => (r.seq ?? 0) <= outcome.handledSeq);
      const earlier = (await runsOfJob(db, end.job.id)).some((r) => r.status === 'pull_request_opened' || r.status === 'pull_request_updated');
      const status = !outcome.sha ? 'no_changes' : outcome.prLink && earlier ? 'pull_request_updated' : outcome.prLink ? 'pull_request_opened' : 'no_changes';
      for (const run of carried) await updateRun({ db, clock, id: run.id, data: { status, prLink: outcome.prLink } });
    },

    async sourceFor(job) {
      const pushes = (await runsOfJob(db, job.id)).filter((r) => r.trigger === 'push' && r.repository && r.afterSha);
      const latest = pushes.at(-1);
      return latest ? { repository: latest.repository!, sha: latest.afterSha! } : null;
    },

    async pullRequestNotes(job) {
      const runs = await runsOfJob(db, job.id);
      if (!runs.length) return null;
      const lines = runs.filter((r) => r.status !== 'skipped').map((r) => `- ${r.summary}`);
      return `### Covered by this pull request\n\nAutomation \`${runs[0].automationId}\` keeps this pull request up to date:\n\n${lines.join('\n')}`;
    },
  };
}
