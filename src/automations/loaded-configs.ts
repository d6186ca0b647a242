import { getProject, listProjects } from '../projects/projects.js';
import { UpstreamTimedOut } from '../errors.js';
import type { AutomationDeps } from './automation-deps.js';
import { findConfig, listConfigs, type LoadedConfig } from './config-store.js';
import { loadAutomationsConfig } from './load-config.js';

type ConfigDeps = Pick<AutomationDeps, 'db' | 'clock' | 'logger' | 'github' | 'firstReadMs'>;

/**
 * How long a request waits for a project's first read of GitHub: Octokit retries a GitHub that cannot be reached or
 * answers 5xx for minutes, longer than any client waits.
 */
export const FIRST_READ_MS = 10_000;

/**
 * The project's automations and config problems as stored, read from GitHub the first time. A read GitHub refuses
 * or fails is a typed error naming the cause (github-failure.ts); one that takes longer than `firstReadMs` is
 * UpstreamTimedOut, and goes on in the background: the config it stores answers the next request.
 */
export async function loadedConfig(deps: ConfigDeps, projectId: string): Promise<LoadedConfig> {
  const project = await getProject(deps.db, projectId);
  const stored = await findConfig(deps.db, projectId);
  if (stored) return stored;
  const reading = loadAutomationsConfig({ ...deps, project });
  const budgetMs = deps.firstReadMs ?? FIRST_READ_MS;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reading.catch((err: unknown) =>
        deps.logger.warn({ err, project: project.id }, 'could not read the automations config'),
      );
      reject(
        new UpstreamTimedOut(
          `GitHub did not answer within ${budgetMs / 1000} s while reading the docs repository ${project.repository} (it may be down or unreachable); try again later`,
        ),
      );
    }, budgetMs);
  });
  try {
    return await Promise.race([reading, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Every project's stored config; an enabled project never read yet (installed, no push to its default branch since)
 * is read first, so its schedules run without waiting for a push. One that cannot be read now is tried at the next
 * look.
 */
export async function loadedConfigs(deps: ConfigDeps): Promise<LoadedConfig[]> {
  const loaded = await listConfigs(deps.db);
  const known = new Set(loaded.map((c) => c.projectId));
  for (const project of await listProjects(deps.db)) {
    if (known.has(project.id) || project.disabledAt) continue;
    try {
      loaded.push(await loadAutomationsConfig({ ...deps, project }));
    } catch (err) {
      deps.logger.warn(
        { err, project: project.id },
        'could not read the automations config; trying again at the next look',
      );
    }
  }
  return loaded;
}
