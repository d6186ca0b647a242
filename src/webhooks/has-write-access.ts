import { statusOf, type InstallationOctokit } from '../github/github-app.js';

const WRITE_ROLES = new Set(['admin', 'maintain', 'write']);

/**
 * Whether a user may make Scribe act on a repository: admin, maintain or write permission, as the collaborator
 * permission API reports it (GitHub folds maintain into `permission: write`; `role_name` keeps it).
 */
export async function hasWriteAccess(params: {
  octokit: InstallationOctokit;
  repository: string;
  username: string;
}): Promise<boolean> {
  const [owner, repo] = params.repository.split('/');
  try {
    const { data } = await params.octokit.rest.repos.getCollaboratorPermissionLevel({
      owner,
      repo,
      username: params.username,
    });
    return WRITE_ROLES.has(data.role_name ?? '') || WRITE_ROLES.has(data.permission);
  } catch (err) {
    // Not a collaborator at all.
    if (statusOf(err) === 404) return false;
    throw err;
  }
}
