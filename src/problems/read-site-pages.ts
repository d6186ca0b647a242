import type { GitHubApp } from '../github/github-app.js';
import type { Logger } from '../logger.js';
import type { Project } from '../projects/projects.js';
import { DocsPagesCache } from '../reviews/docs-pages-cache.js';
import { readDocsPages } from '../reviews/read-docs-pages.js';
import { sitePages } from './site-pages.js';
import type { SitePage } from './redirect-candidates.js';

/** The pages of a project's docs at its ref (redirect candidates must exist there). */
export type ReadSitePages = (project: Project) => Promise<SitePage[]>;

/**
 * Reads the docs branch's head commit through the App (a clone per commit, kept across reads as the reviews keep
 * theirs). A docs repository that cannot be read leaves the candidates empty, logged: the queue still answers.
 */
export function gitHubSitePages(params: { github: GitHubApp; logger: Logger }): ReadSitePages {
  const { github, logger } = params;
  const cache = new DocsPagesCache();
  return async (project) => {
    try {
      const installationId = await github.installationFor(project.repository, project.installationId);
      const octokit = await github.octokit(installationId);
      const [owner, repo] = project.repository.split('/');
      const { data } = await octokit.rest.repos.getBranch({ owner, repo, branch: project.ref });
      const sha = data.commit.sha;
      const pages = await cache.get(project.repository, sha, async () =>
        readDocsPages({ url: github.gitUrl(project.repository), sha, token: await github.freshToken(installationId) }),
      );
      return sitePages(pages);
    } catch (err) {
      logger.warn({ err, project: project.id }, 'the docs pages could not be read for redirect candidates');
      return [];
    }
  };
}
