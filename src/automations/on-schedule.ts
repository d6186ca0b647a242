import { findProject } from '../projects/projects.js';
import type { AutomationDeps } from './automation-deps.js';
import { findConfig } from './config-store.js';
import { runExists, type AutomationRun } from './run-store.js';
import { startRun } from './start-run.js';
import type { DueSlot } from './schedule-runs.js';

/**
 * Starts the run of a schedule's due slot (found by the scheduler, schedule-runs.ts), once across processes: the slot is the run's key. Null when the slot was
 * already claimed, or the automation or its project is gone or disabled.
 */
export async function startSlotRun(deps: AutomationDeps, due: DueSlot): Promise<AutomationRun | null> {
  const { db } = deps;
  const dedupeKey = `schedule:${due.slot.toISOString()}`;
  // Most ticks find the slot already claimed: a read, not a refused insert.
  if (await runExists(db, due.projectId, due.automationId, dedupeKey)) return null;
  const automation = (await findConfig(db, due.projectId))?.automations.find((a) => a.id === due.automationId);
  const project = await findProject(db, due.projectId);
  if (!automation || !project || project.disabledAt) return null;
  return startRun(deps, {
    project,
    automation,
    request: { trigger: 'schedule', dedupeKey, summary: `Scheduled run for ${due.slot.toISOString()}` },
  });
}
