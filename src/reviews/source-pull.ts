import { fetchComparison } from '../automations/fetch-push-change.js';
import type { InstallationOctokit } from '../github/github-app.js';
import type { SourceChange } from '../automations/describe-change.js';

/** A source pull request as a docs draft needs it. */
export interface SourcePull {
  repository: string;
  number: number;
  title: string;
  body: string;
  url: string;
  author: string;
  state: 'open' | 'closed';
  merged: boolean;
  headSha: string;
  headRef: string;
  baseRef: string;
  baseSha: string;
  /** the repository's default branch (an automation without `branches` follows it) */
  defaultBranch: string;
  /** logins asked for a review that has not come yet */
  requestedReviewers: string[];
}

/** The fields read of a pull request as GitHub's REST API (and a webhook's `pull_request`) shows it. */
export interface PullRequestJson {
  number: number;
  title?: string | null;
  body?: string | null;
  html_url: string;
  user?: { login: string } | null;
  state?: string;
  merged?: boolean | null;
  head?: { sha: string; ref: string };
  base?: { sha?: string; ref: string; repo?: { default_branch?: string } | null };
  requested_reviewers?: readonly unknown[] | null;
}

export function toSourcePull(repository: string, pr: PullRequestJson): SourcePull {
  return {
    repository,
    number: pr.number,
    title: pr.title ?? '',
    body: pr.body ?? '',
    url: pr.html_url,
    author: pr.user?.login ?? 'unknown',
    state: pr.state === 'closed' ? 'closed' : 'open',
    merged: pr.merged === true,
    headSha: pr.head?.sha ?? '',
    headRef: pr.head?.ref ?? '',
    baseRef: pr.base?.ref ?? '',
    baseSha: pr.base?.sha ?? pr.base?.ref ?? '',
    defaultBranch: pr.base?.repo?.default_branch ?? 'main',
    requestedReviewers: (pr.requested_reviewers ?? []).flatMap((u) => {
      // teams (a name, no login) cannot be asked on the docs repository by login
      const login = (u as { login?: unknown } | null)?.login;
      return typeof login === 'string' ? [login] : [];
    }),
  };
}

export async function fetchSourcePull(params: {
  octokit: InstallationOctokit;
  repository: string;
  number: number;
}): Promise<SourcePull> {
  const [owner, repo] = params.repository.split('/');
  const { data } = await params.octokit.rest.pulls.get({ owner, repo, pull_number: params.number });
  return toSourcePull(params.repository, data);
}

/**
 * The commits and changed files (with patches) between two commits of the source repository, as a push run reads
 * them: the whole pull request (its base...head) for a draft, the new commits (before...after) for a follow-up.
 */
export async function fetchPullChange(params: {
  octokit: InstallationOctokit;
  pull: SourcePull;
  base: string;
  head: string;
  webBase: string;
}): Promise<SourceChange> {
  const { pull, base, head } = params;
  const { compareUrl, commits, files } = await fetchComparison({ ...params, repository: pull.repository });
  return {
    repository: pull.repository,
    branch: pull.headRef,
    before: base,
    after: head,
    compareUrl,
    commits,
    // the body is told once, quoted, with the pull request (draft-prompt.ts)
    pulls: [{ number: pull.number, title: pull.title, body: '', url: pull.url }],
    files,
  };
}
