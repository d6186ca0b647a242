import picomatch from 'picomatch';
import { findProject } from '../projects/projects.js';
import type { AutomationDeps } from './automation-deps.js';
import { listConfigs } from './config-store.js';
import { changeSummary, describeChange } from './describe-change.js';
import { fetchPushChange } from './fetch-push-change.js';
import { startRun } from './start-run.js';

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

/**
 * Starts a run of each loaded push automation that follows the pushed repository and branch and whose paths one of
 * the changed files matches, with the push's commits, pull requests and diff for the agent. The push is keyed by its
 * after-sha, so a redelivery (or another process) starts nothing. Returns one line for each automation, for the
 * delivery's outcome.
 */
export async function startPushRuns(deps: AutomationDeps, push: Push): Promise<string[]> {
  const { db, github } = deps;
  const matching = (await listConfigs(db)).flatMap((c) =>
    c.automations
      .filter(
        (a) =>
          a.on.kind === 'push' &&
          a.on.repository.toLowerCase() === push.repository.toLowerCase() &&
          (a.on.branches ?? [push.defaultBranch]).includes(push.branch),
      )
      .map((automation) => ({ projectId: c.projectId, automation })),
  );
  if (!matching.length) return ['no automation follows this push'];
  const octokit = await github.octokit(await github.installationFor(push.repository, null));
  const change = await fetchPushChange({ octokit, ...push, webBase: github.repositoryUrl('').replace(/\/$/, '') });
  const said: string[] = [];
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
      request: {
        trigger: 'push',
        dedupeKey: `push:${push.repository}:${push.branch}:${push.after}`,
        repository: push.repository,
        beforeSha: push.before,
        afterSha: push.after,
        change: describeChange(change),
        summary: changeSummary(change),
        // a push comes from a webhook delivery, which is retried until it finishes
        retried: true,
      },
    });
    said.push(
      run
        ? `${automation.id}: run ${run.id} ${run.status}${run.jobId ? ` (job ${run.jobId})` : ''}`
        : `${automation.id}: this push already started a run`,
    );
  }
  return said;
}
