import { NotFound } from '../errors.js';
import { randomId } from '../ids.js';
import { getProject } from '../projects/projects.js';
import type { AutomationDeps } from './automation-deps.js';
import { loadedConfig } from './loaded-configs.js';
import type { AutomationRun } from './run-store.js';
import { startRun } from './start-run.js';

/**
 * A run asked for by hand (the API's trigger, the CLI), whatever the automation's own trigger. Every request is a run
 * of its own; NotFound when no automation of that id is loaded for the project.
 */
export async function startManualRun(
  deps: AutomationDeps,
  params: { projectId: string; automationId: string },
): Promise<AutomationRun> {
  const loaded = await loadedConfig(deps, params.projectId);
  const automation = loaded.automations.find((a) => a.id === params.automationId);
  if (!automation)
    throw new NotFound(`No automation ${JSON.stringify(params.automationId)} is loaded for this project`);
  const project = await getProject(deps.db, params.projectId);
  const at = deps.clock().toISOString();
  const run = await startRun(deps, {
    project,
    automation,
    request: { trigger: 'manual', dedupeKey: `manual:${randomId('req')}`, summary: `Manual run at ${at}` },
  });
  // The key is new, so the claim cannot find it taken.
  return run!;
}
