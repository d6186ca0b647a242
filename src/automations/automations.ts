import type { Db } from '../db/client.js';
import type { DatabaseTarget } from '../db/database-url.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { GitHubApp } from '../github/github-app.js';
import type { JobRequests } from '../jobs/job-requests.js';
import type { FeedbackStored } from '../analytics/signals/feedback-stored.js';
import type { LoadedConfig } from './config-store.js';
import { loadedConfig, loadedConfigs } from './loaded-configs.js';
import { reloadConfigsOnPush } from './reload-configs.js';
import { startPushRuns, type Push } from './on-push.js';
import { startSlotRun } from './on-schedule.js';
import type { DueSlot } from './schedule-runs.js';
import { startFeedbackRuns, type FeedbackReader } from './on-feedback.js';
import { startManualRun } from './manual-trigger.js';
import { listRuns, type AutomationRun } from './run-store.js';

export interface Automations {
  /** a push: reloads the config of docs projects whose default branch it is, starts the automations it matches */
  onPush(push: Push): Promise<string>;
  /**
   * the project's automations and config problems, read from GitHub the first time (loaded-configs.ts: a typed error
   * naming the cause when GitHub refuses, fails or does not answer in time)
   */
  config(projectId: string): Promise<LoadedConfig>;
  /** feedback was stored: starts the feedback automations whose trigger a page now meets (once per window of feedback) */
  onFeedback(stored: FeedbackStored): Promise<AutomationRun[]>;
  /** a run asked for by hand (the API, the CLI), a run of its own each time; NotFound when no such automation loaded */
  trigger(projectId: string, automationId: string): Promise<AutomationRun>;
  /** runs a schedule's slot once across processes; null when the slot was already claimed */
  runSlot(slot: DueSlot): Promise<AutomationRun | null>;
  /**
   * every project's loaded config; a project never read yet (installed, no push to its default branch since) is
   * read first, so its schedules run without waiting for a push
   */
  configs(): Promise<LoadedConfig[]>;
  /** the project's runs (of one automation), newest first */
  runs(params: {
    projectId: string;
    automationId?: string;
    limit: number;
    offset: number;
  }): Promise<{ runs: AutomationRun[]; total: number }>;
}

/**
 * The automations service the edges call: each trigger (push, schedule, reader feedback, by hand) is a module of its
 * own that starts runs of ordinary jobs; a run is settled when its job's run ends (settleRuns, on-run-end.ts, which
 * main.ts subscribes to the worker). The job runner's questions
 * about a run (its source, its pull request's notes) are answered apart, by automationRunHooks (run-hooks.ts).
 */
export function createAutomations(params: {
  db: Db;
  database: DatabaseTarget;
  clock: Clock;
  logger: Logger;
  github: GitHubApp;
  jobs: JobRequests;
  runsPerDay: number;
  feedback: FeedbackReader;
  /** how long a request waits for a project's first read of GitHub (default FIRST_READ_MS) */
  firstReadMs?: number;
}): Automations {
  const { feedback, ...deps } = params;
  return {
    // The config is reloaded first: a push that changes it is matched against the automations it now declares.
    onPush: async (push) =>
      [...(await reloadConfigsOnPush(deps, push)), ...(await startPushRuns(deps, push))].join('; '),
    config: (projectId) => loadedConfig(deps, projectId),
    onFeedback: (stored) => startFeedbackRuns({ ...deps, feedback }, stored),
    trigger: (projectId, automationId) => startManualRun(deps, { projectId, automationId }),
    runSlot: (slot) => startSlotRun(deps, slot),
    configs: () => loadedConfigs(deps),
    runs: (query) => listRuns({ db: deps.db, ...query }),
  };
}
