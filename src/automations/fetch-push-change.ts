import type { InstallationOctokit } from '../github/github-app.js';
import type { SourceChange } from './describe-change.js';

const MAX_PULL_LOOKUPS = 20;

/**
 * A push's commits, changed files (with patches) and associated pull requests, from GitHub's compare and
 * commits/{sha}/pulls routes. A new branch (before is all zeros) is compared from its head commit's parent.
 */
export async function fetchPushChange(params: {
  octokit: InstallationOctokit;
  repository: string;
  branch: string;
  before: string;
  after: string;
  webBase: string;
}): Promise<SourceChange> {
  const { octokit, repository, branch, before, after } = params;
  const [owner, repo] = repository.split('/');
  const base = /^0+$/.test(before) ? `${after}^` : before;
  const { compareUrl, commits, files } = await fetchComparison({ ...params, base, head: after });
  const pulls = new Map<number, SourceChange['pulls'][number]>();
  for (const commit of commits.slice(-MAX_PULL_LOOKUPS)) {
    const { data: found } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
      owner,
      repo,
      commit_sha: commit.sha,
    });
    for (const p of found)
      pulls.set(p.number, { number: p.number, title: p.title, body: p.body ?? '', url: p.html_url });
  }
  return { repository, branch, before, after, compareUrl, commits, pulls: [...pulls.values()], files };
}

/**
 * The commits and changed files (with patches) between two commits, from GitHub's compare route, as the prompts of
 * push runs and docs drafts show them.
 */
export async function fetchComparison(params: {
  octokit: InstallationOctokit;
  repository: string;
  base: string;
  head: string;
  webBase: string;
}): Promise<Pick<SourceChange, 'compareUrl' | 'commits' | 'files'>> {
  const { octokit, repository, base, head } = params;
  const [owner, repo] = repository.split('/');
  const { data } = await octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: `${base}...${head}` });
  return {
    compareUrl: data.html_url ?? `${params.webBase}/${repository}/compare/${base}...${head}`,
    commits: data.commits.map((c) => ({
      sha: c.sha,
      message: c.commit.message,
      author: c.author?.login ?? c.commit.author?.name ?? 'unknown',
      url: c.html_url,
    })),
    files: (data.files ?? []).map((f) => ({
      filename: f.filename,
      status: f.status,
      additions: f.additions,
      deletions: f.deletions,
      patch: f.patch ?? null,
    })),
  };
}
