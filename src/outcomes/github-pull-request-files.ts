import type { Db } from '../db/client.js';
import type { GitHubApp } from '../github/github-app.js';
import { getProject } from '../projects/projects.js';
import { GITHUB_LISTED_FILES, readPullRequestFiles } from '../reviews/read-pull-request-files.js';
import type { PullRequestFile } from './changed-pages.js';

export type ReadPullRequestFiles = (pull: {
  projectId: string;
  repository: string;
  number: number;
}) => Promise<PullRequestFile[]>;

/** A pull request's files through the App, as the docs reviews read them (up to GitHub's 3,000; no removed texts). */
export function gitHubPullRequestFiles(params: { db: Db; github: GitHubApp }): ReadPullRequestFiles {
  const { db, github } = params;
  return async (pull) => {
    const { installationId } = await getProject(db, pull.projectId);
    const octokit = await github.octokit(await github.installationFor(pull.repository, installationId));
    const { files } = await readPullRequestFiles({
      octokit,
      repository: pull.repository,
      number: pull.number,
      baseSha: '',
      changedFiles: GITHUB_LISTED_FILES,
      // no removed file is read at the base: only the names matter here
      maxFiles: 0,
      maxBytes: 0,
    });
    return files;
  };
}
