import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { addProject, findProjectByRepository, type Project } from './projects.js';

/** Why a project was disabled; shown by `scribe project list` and in the error of its jobs. */
export const DISABLED = {
  removed: 'the GitHub App was removed from the repository',
  uninstalled: 'the GitHub App installation was deleted',
  suspended: 'the GitHub App installation is suspended',
} as const;

export type InstalledChange = 'created' | 'restored' | 'updated' | 'unchanged';

/**
 * A repository the App was installed on becomes a project (ref = its default branch). A repository that already
 * had one (added by hand, or removed earlier and now re-added) gets that project back, with its id, keys, ref and
 * analytics, now pointing at this installation.
 */
export async function adoptInstalledRepository(params: {
  db: Db;
  clock: Clock;
  repository: string;
  installationId: number;
  defaultBranch: string;
}): Promise<{ project: Project; change: InstalledChange }> {
  const { db, clock, repository, installationId } = params;
  const existing = await findProjectByRepository(db, repository);
  if (!existing) {
    const project = await addProject({
      db,
      clock,
      repository,
      ref: params.defaultBranch,
      installationId,
      source: 'installation',
    });
    return { project, change: 'created' };
  }
  if (!existing.disabledAt && existing.installationId === installationId)
    return { project: existing, change: 'unchanged' };
  await db.project.update({
    where: { id: existing.id },
    data: { installationId, disabledAt: null, disabledReason: null, updatedAt: clock() },
  });
  const project = (await findProjectByRepository(db, repository))!;
  return { project, change: existing.disabledAt ? 'restored' : 'updated' };
}

/**
 * Disables the projects of these repositories (or of the whole installation when none are given). Rows are kept:
 * analytics stay readable and a later re-install restores the same project. A manual project with no installation
 * of its own is disabled too, since it reached the repository through this App.
 */
export async function disableInstalledProjects(params: {
  db: Db;
  clock: Clock;
  installationId: number;
  repositories?: string[];
  reason: string;
}): Promise<number> {
  const { db, clock, installationId, repositories, reason } = params;
  const where = repositories
    ? { repository: { in: repositories }, OR: [{ installationId }, { installationId: null }] }
    : { installationId };
  const { count } = await db.project.updateMany({
    where: { ...where, disabledAt: null },
    data: { disabledAt: clock(), disabledReason: reason, updatedAt: clock() },
  });
  return count;
}

/** Re-enables an installation's projects that were disabled for this reason only (unsuspend keeps removed repositories off). */
export async function enableInstalledProjects(params: {
  db: Db;
  clock: Clock;
  installationId: number;
  reason: string;
}): Promise<number> {
  const { db, clock, installationId, reason } = params;
  const { count } = await db.project.updateMany({
    where: { installationId, disabledReason: reason },
    data: { disabledAt: null, disabledReason: null, updatedAt: clock() },
  });
  return count;
}
