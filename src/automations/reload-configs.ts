import { listProjects } from '../projects/projects.js';
import type { AutomationDeps } from './automation-deps.js';
import { loadAutomationsConfig } from './load-config.js';
import type { Push } from './on-push.js';

/**
 * A push to a docs project's default branch may change its `.scribe/automations.yml`: reloads the config of each
 * enabled project of the pushed repository at the pushed commit, before any run is started for the push, and reports
 * problems on the push's commit that changed the file. Returns one line for each project reloaded.
 */
export async function reloadConfigsOnPush(
  deps: Pick<AutomationDeps, 'db' | 'clock' | 'logger' | 'github'>,
  push: Pick<Push, 'repository' | 'branch' | 'defaultBranch' | 'after' | 'configCommit'>,
): Promise<string[]> {
  if (push.branch !== push.defaultBranch) return [];
  const said: string[] = [];
  for (const project of await listProjects(deps.db)) {
    if (project.disabledAt || project.repository.toLowerCase() !== push.repository.toLowerCase()) continue;
    const loaded = await loadAutomationsConfig({ ...deps, project, sha: push.after, reportOn: push.configCommit });
    said.push(
      `config of ${project.id} reloaded (${loaded.automations.length} loaded, ${loaded.problems.length} problems)`,
    );
  }
  return said;
}
