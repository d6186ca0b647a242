import { Unavailable } from '../../errors.js';
import type { GitHubApp } from '../../github/github-app.js';
import type { DocsSource } from './docs-sites.js';
import { readDocsFiles } from './read-docs-files.js';

/** A project's docs from its GitHub repository, through the App's installation (none configured: 503). */
export function gitHubDocsSource(github: GitHubApp | null): DocsSource {
  const app = () => {
    if (!github) throw new Unavailable('The GitHub App is not configured: the docs repository cannot be read');
    return github;
  };
  return {
    async headSha(project) {
      const installationId = await app().installationFor(project.repository, project.installationId);
      const octokit = await app().octokit(installationId);
      const [owner, repo] = project.repository.split('/');
      const { data } = await octokit.rest.repos.getBranch({ owner, repo, branch: project.ref });
      return data.commit.sha;
    },
    async files(project, sha) {
      const installationId = await app().installationFor(project.repository, project.installationId);
      return readDocsFiles({
        url: app().gitUrl(project.repository),
        sha,
        token: await app().freshToken(installationId),
      });
    },
  };
}
