import picomatch from 'picomatch';
import type { Db } from '../db/client.js';
import { listConfigs, type LoadedConfig } from './config-store.js';
import type { Automation, PullRequestTrigger, ReviewOptions } from './parse-config.js';

/** A pull_request automation, its trigger and review options narrowed. */
export type PullRequestAutomation = Automation & { on: PullRequestTrigger; review: ReviewOptions };

/** The source pull request as far as matching needs it. */
export interface PullRequestTarget {
  /** owner/name of the repository the pull request merges into */
  repository: string;
  baseBranch: string;
  /** the repository's default branch: an automation without `branches` follows it */
  defaultBranch: string;
  /** the pull request's changed paths (a rename counts under both names); null: not read yet, paths not checked */
  changedPaths: string[] | null;
}

export const isPullRequestAutomation = (a: Automation): a is PullRequestAutomation => a.on.kind === 'pull_request';

/**
 * The loaded pull_request automations that follow this pull request: its repository (case-insensitive, as GitHub
 * names are), its base branch, and, when the changed paths are given, at least one of them matching the paths. Pure.
 */
export function matchPullRequest(
  configs: LoadedConfig[],
  target: PullRequestTarget,
): { projectId: string; automation: PullRequestAutomation }[] {
  const repository = target.repository.toLowerCase();
  return configs.flatMap((config) =>
    config.automations
      .filter(isPullRequestAutomation)
      .filter(
        (a) =>
          a.on.repository.toLowerCase() === repository &&
          (a.on.branches ?? [target.defaultBranch]).includes(target.baseBranch) &&
          (target.changedPaths === null ||
            a.on.paths === null ||
            target.changedPaths.some((path) => picomatch.isMatch(path, a.on.paths!, { dot: true }))),
      )
      .map((automation) => ({
        projectId: config.projectId,
        automation: { ...automation, review: automation.review ?? { comment: false, block: false } },
      })),
  );
}

/** matchPullRequest over every project's stored config. */
export async function pullRequestAutomations(
  db: Db,
  target: PullRequestTarget,
): Promise<{ projectId: string; automation: PullRequestAutomation }[]> {
  return matchPullRequest(await listConfigs(db), target);
}
