import { statusOf, type InstallationOctokit } from '../github/github-app.js';
import {
  adoptInstalledRepository,
  disableInstalledProjects,
  enableInstalledProjects,
  DISABLED,
} from '../projects/installation-projects.js';
import { done, ignored, type Delivery, type HandlerResult, type WebhookDeps } from './webhook-deps.js';

/** installation.created / deleted / suspend / unsuspend: the installation's repositories as projects. */
export async function handleInstallation(
  deps: WebhookDeps,
  delivery: Delivery<'installation'>,
): Promise<HandlerResult> {
  const { payload } = delivery;
  const installationId = payload.installation.id;
  const { db, clock } = deps;
  switch (payload.action) {
    case 'created':
      return adoptRepositories({
        deps,
        octokit: delivery.octokit,
        installationId,
        repositories: (payload.repositories ?? []).map((r) => r.full_name),
      });
    case 'deleted':
      return done(
        `disabled ${await disableInstalledProjects({ db, clock, installationId, reason: DISABLED.uninstalled })} project(s)`,
      );
    case 'suspend':
      return done(
        `disabled ${await disableInstalledProjects({ db, clock, installationId, reason: DISABLED.suspended })} project(s)`,
      );
    case 'unsuspend':
      return done(
        `enabled ${await enableInstalledProjects({ db, clock, installationId, reason: DISABLED.suspended })} project(s)`,
      );
    default:
      return ignored(`installation.${payload.action} needs nothing`);
  }
}

/** installation_repositories.added / removed: repositories given to or taken from the App. */
export async function handleInstallationRepositories(
  deps: WebhookDeps,
  delivery: Delivery<'installation_repositories'>,
): Promise<HandlerResult> {
  const { payload } = delivery;
  const installationId = payload.installation.id;
  if (payload.action === 'added') {
    return adoptRepositories({
      deps,
      octokit: delivery.octokit,
      installationId,
      repositories: payload.repositories_added.map((r) => r.full_name),
    });
  }
  const repositories = payload.repositories_removed.map((r) => r.full_name ?? '').filter(Boolean);
  const count = await disableInstalledProjects({
    db: deps.db,
    clock: deps.clock,
    installationId,
    repositories,
    reason: DISABLED.removed,
  });
  return done(`disabled ${count} project(s)`);
}

async function adoptRepositories(params: {
  deps: WebhookDeps;
  octokit: InstallationOctokit;
  installationId: number;
  repositories: string[];
}): Promise<HandlerResult> {
  const { deps, octokit, installationId, repositories } = params;
  const branches = await defaultBranches(octokit, repositories);
  const changes: string[] = [];
  for (const repository of repositories) {
    const defaultBranch = branches.get(repository);
    if (!defaultBranch) {
      changes.push(`${repository}: not reachable`);
      continue;
    }
    const { change } = await adoptInstalledRepository({
      db: deps.db,
      clock: deps.clock,
      repository,
      installationId,
      defaultBranch,
    });
    changes.push(`${repository}: ${change}`);
  }
  return done(changes.join('; ') || 'no repositories');
}

/**
 * Default branches, from the installation's repository list (one paginated call however many repositories),
 * then one lookup each for any the list missed.
 */
async function defaultBranches(octokit: InstallationOctokit, repositories: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!repositories.length) return found;
  const listed = await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 });
  for (const repo of listed) found.set(repo.full_name, repo.default_branch);
  for (const repository of repositories.filter((r) => !found.has(r))) {
    const [owner, repo] = repository.split('/');
    try {
      const { data } = await octokit.rest.repos.get({ owner, repo });
      found.set(repository, data.default_branch);
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
    }
  }
  return found;
}
