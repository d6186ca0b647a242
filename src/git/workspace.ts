import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';

/** A git operation failed; `message` is safe to show (no token), `kind` says what a user can do about it. */
export class GitFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'auth' | 'not_found' | 'rejected' | 'other',
  ) {
    super(message);
  }
}

function authConfig(token: string): string {
  // A per-command header instead of credentials in the URL: the token never lands in .git/config or in
  // git's error messages, and each command can carry a token minted just before it.
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return `http.extraHeader=Authorization: Basic ${basic}`;
}

const PASSED_ENV =
  /^(PATH|HOME|TMPDIR|LANG|LC_[A-Z]+|SSL_CERT_FILE|SSL_CERT_DIR|(https?|no|all)_proxy|(HTTPS?|NO|ALL)_PROXY)$/;

/** Git's environment: only what it needs to run and reach the network, never a prompt for credentials. */
function gitEnv(): Record<string, string> {
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: '0' };
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && PASSED_ENV.test(name)) env[name] = value;
  return env;
}

function git(params: { dir?: string; token?: string; signal?: AbortSignal }): SimpleGit {
  return simpleGit({
    baseDir: params.dir,
    config: params.token ? [authConfig(params.token)] : [],
    abort: params.signal,
    allowEnvironment: ['GIT_TERMINAL_PROMPT'],
    timeout: { block: 120_000 },
  }).env(gitEnv());
}

function classify(err: unknown, token?: string): GitFailure {
  let text = String((err as Error)?.message ?? err);
  if (token) text = text.split(token).join('***');
  return classifyGitOutput(text);
}

/**
 * Names what a user can do about git's output. A rejection is recognised before auth, and an HTTP status only as git
 * prints it ("The requested URL returned error: 403"): a rejected push echoes refs and shas, and a bare /403/ matched
 * a sha such as `…4031…`, which reported a branch-protection rejection as a missing permission.
 */
export function classifyGitOutput(text: string): GitFailure {
  const firstLines = text.trim().split('\n').slice(0, 6).join(' ').slice(0, 600);
  if (/\[remote rejected\]|\[rejected\]|pre-receive hook declined|protected branch/i.test(text))
    return new GitFailure(firstLines, 'rejected');
  if (/Authentication failed|could not read Username|returned error: 40[13]\b|HTTP 40[13]\b/i.test(text))
    return new GitFailure(firstLines, 'auth');
  // GitHub answers 404 for a repository the token cannot see, so "repository not found" means no access.
  if (/repository '[^']*' not found|Repository not found/i.test(text)) return new GitFailure(firstLines, 'auth');
  if (/Remote branch .* not found|Could not find remote branch|couldn't find remote ref/i.test(text))
    return new GitFailure(firstLines, 'not_found');
  return new GitFailure(firstLines, 'other');
}

const WORKSPACE_PREFIX = 'scribe-job-';

/** A private (0700) temp directory named after this process, so a later process can tell whether it is orphaned. */
export async function createWorkspaceDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), `${WORKSPACE_PREFIX}${process.pid}-`));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes workspaces left by processes that no longer run (killed before their cleanup could run). Other live
 * Scribe processes on the machine keep theirs. Returns how many were removed.
 */
export async function sweepOrphanWorkspaces(): Promise<number> {
  let removed = 0;
  for (const name of await fs.readdir(os.tmpdir()).catch(() => [] as string[])) {
    const pid = Number(name.slice(WORKSPACE_PREFIX.length).split('-')[0]);
    if (!name.startsWith(WORKSPACE_PREFIX) || !Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid))
      continue;
    await removeWorkspace(path.join(os.tmpdir(), name));
    removed++;
  }
  return removed;
}

export async function removeWorkspace(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true, maxRetries: 3 });
}

export async function remoteBranchExists(params: {
  url: string;
  branch: string;
  token: string;
  signal?: AbortSignal;
}): Promise<boolean> {
  try {
    const out = await git(params).listRemote(['--heads', params.url, `refs/heads/${params.branch}`]);
    return out.trim().length > 0;
  } catch (err) {
    throw classify(err, params.token);
  }
}

/** Who commits: the GitHub App's bot user, as its caller looked it up. */
export interface CommitIdentity {
  name: string;
  email: string;
}

/** Shallow single-branch clone of `ref` into `dir`, with the bot as committer and signing off (one git process). */
export async function cloneRepository(params: {
  url: string;
  ref: string;
  dir: string;
  token: string;
  identity: CommitIdentity;
  signal?: AbortSignal;
}): Promise<void> {
  const { identity } = params;
  try {
    await git({ token: params.token, signal: params.signal }).clone(params.url, params.dir, [
      '--depth',
      '1',
      '--single-branch',
      '--branch',
      params.ref,
      '--no-tags',
      '--config',
      `user.name=${identity.name}`,
      '--config',
      `user.email=${identity.email}`,
      '--config',
      'commit.gpgsign=false',
    ]);
  } catch (err) {
    throw classify(err, params.token);
  }
}

/**
 * A shallow checkout of one commit (a source repository at a pushed sha), for reading only: fetched by sha, which
 * GitHub and git's protocol v2 serve for any reachable commit, with no remote left configured to push to.
 */
export async function checkoutCommit(params: {
  url: string;
  sha: string;
  dir: string;
  token: string;
  signal?: AbortSignal;
}): Promise<void> {
  try {
    await git({ dir: params.dir }).init();
    await git({ dir: params.dir, token: params.token, signal: params.signal }).raw([
      'fetch',
      '--depth',
      '1',
      '--no-tags',
      params.url,
      params.sha,
    ]);
    await git({ dir: params.dir }).raw(['checkout', '--quiet', '--detach', 'FETCH_HEAD']);
  } catch (err) {
    throw classify(err, params.token);
  }
}

/** Stages everything and commits it; null when the working tree has no changes. */
export async function commitAll(params: { dir: string; message: string }): Promise<string | null> {
  const repo = git(params);
  // --verbose: simple-git waits an extra 50 ms after a git process that printed nothing at all.
  await repo.raw(['add', '--all', '--verbose']);
  // git commit with nothing staged exits without a commit, which simple-git reports as an empty hash: two git
  // processes for the usual case instead of a status check first.
  const result = await repo.commit(params.message);
  if (result.commit) return result.commit;
  if (!(await repo.raw(['status', '--porcelain'])).trim()) return null;
  return (await repo.revparse(['HEAD'])).trim();
}

export async function pushBranch(params: {
  dir: string;
  url: string;
  branch: string;
  token: string;
  signal?: AbortSignal;
}): Promise<void> {
  try {
    await git(params).push(params.url, `HEAD:refs/heads/${params.branch}`);
  } catch (err) {
    throw classify(err, params.token);
  }
}
