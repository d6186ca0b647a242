import { TEST_KEEP_ALIVE_SECONDS } from './keep-alive.js';
import { execFileSync, spawn } from 'node:child_process';
import { createPublicKey, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { graphql, pullJson, pullRoute, type PullLifeCycle } from './github-host-pulls.js';

/**
 * A local "GitHub Enterprise" for tests: the REST routes a GitHub App calls under /api/v3 (app JWTs verified
 * against the app's public key, installation tokens, repositories, pull requests, comments) and real git over
 * smart HTTP through `git http-backend` on bare repositories, guarded by installation tokens.
 */
export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  auth: 'jwt' | 'token' | 'none';
  token?: string;
  at: number;
}

export interface GitRequest {
  method: string;
  repository: string;
  service: string;
  token: string | null;
  status: number;
  at: number;
}

export interface IssuedToken {
  token: string;
  installationId: number;
  issuedAt: number;
}

export interface PullRequest extends PullLifeCycle {
  number: number;
  repository: string;
  title: string;
  body: string;
  draft: boolean;
  head: string;
  base: string;
  state: 'open' | 'closed';
  html_url: string;
  comments: string[];
  /** a source pull request a person opened (openPullRequest): its author, and the fork its head comes from */
  user?: string;
  fork?: string;
  /** the base branch's commit when it merged: GitHub still lists a merged pull request's files against it */
  mergedFrom?: string;
}

/** A check run as the Checks API keeps it (issue 18: docs reviews). */
export interface CheckRun {
  id: number;
  repository: string;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  external_id: string | null;
  output: { title?: string; summary?: string; text?: string };
  actions: { label: string; description: string; identifier: string }[];
  /** every create and update body, in order */
  writes: unknown[];
}

/** A comment posted through the REST API: on an issue or pull request, or a reply in a review comment's thread. */
export interface PostedComment {
  id: number;
  repository: string;
  number: number;
  body: string;
  /** the review comment whose thread this replies to; null for a conversation comment */
  inReplyTo: number | null;
  token?: string;
  /** edits through PATCH /repos/{owner}/{repo}/issues/comments/{id}, and whether it was deleted */
  edits?: number;
  deleted?: boolean;
}

export interface CommitStatus {
  repository: string;
  sha: string;
  state: string;
  context: string;
  description: string | null;
}

export interface GitHubHost {
  url: string;
  /** host:port, for GHE_HOST */
  host: string;
  app: { id: number; slug: string; privateKey: string; botUserId: number };
  calls: RecordedCall[];
  gitRequests: GitRequest[];
  tokens: IssuedToken[];
  pulls: PullRequest[];
  /** App manifests registered through the manifest flow's "new GitHub App" page */
  manifests: { manifest: Record<string, any>; organization: string | null; code: string }[];
  /** every comment posted (issues, pull requests, review replies), in order */
  comments: PostedComment[];
  /** a collaborator's permission (`maintain` is reported as permission write, role maintain); others get 404 */
  setPermission(
    repository: string,
    login: string,
    role: 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none',
  ): void;
  /** an installation that can reach these repositories */
  addInstallation(id: number, repositories: string[]): void;
  /** removes a repository from every installation (the App lost access) */
  revokeAccess(repository: string): void;
  /** a bare repository whose first commit holds `files` (and `links`: symlink path → target) */
  createRepository(
    repository: string,
    files: Record<string, string>,
    branch?: string,
    links?: Record<string, string>,
  ): void;
  /** rejects pushes to refs matching the shell pattern (a pre-receive hook, like branch protection) */
  protectBranches(repository: string, pattern: string): void;
  /** answers the next matching REST call only after this many milliseconds (a slow GitHub) */
  delayNext(method: string, pathPattern: RegExp, ms: number): void;
  /** holds the next matching REST call until `release` is called; `reached` resolves once the call arrives */
  holdNext(method: string, pathPattern: RegExp): { reached: Promise<void>; release(): void };
  /** answers the next matching REST call with this status */
  failNext(method: string, pathPattern: RegExp, status: number, message?: string): void;
  branches(repository: string): string[];
  /** commit statuses posted (POST /repos/{owner}/{repo}/statuses/{sha}), in order */
  statuses: CommitStatus[];
  /** commits `files` (null deletes) on top of `branch` as `author`; returns the push's before and after shas */
  commitFiles(
    repository: string,
    branch: string,
    files: Record<string, string | null>,
    message: string,
    author?: string,
  ): { before: string; after: string };
  /** a merged pull request GitHub associates with the commit (GET /repos/{owner}/{repo}/commits/{sha}/pulls) */
  associatePull(repository: string, sha: string, pull: { number: number; title: string; body: string }): void;
  readFile(repository: string, ref: string, file: string): string | null;
  listFiles(repository: string, ref: string): string[];
  /** `git diff base..head` of the bare repository */
  diff(repository: string, base: string, head: string, options?: string[]): string;
  /** commits on ref (newest first): sha, author name and email, subject */
  log(repository: string, ref: string): { sha: string; author: string; email: string; subject: string }[];
  // ---- docs reviews (issue 18 §2, §4) ----
  /** check runs created through the Checks API, in order */
  checkRuns: CheckRun[];
  /**
   * a pull request a person opens from `head` into `base` (both branches of `repository`; with `fork`, the payloads
   * and the API say the head comes from that fork, as GitHub keeps a fork's commits under the base's pull refs)
   */
  openPullRequest(
    repository: string,
    params: {
      head: string;
      base?: string;
      title?: string;
      body?: string;
      user?: string;
      fork?: string;
      draft?: boolean;
    },
  ): PullRequest;
  /** a new branch at `from` (a branch or sha), as a contributor's push would make it */
  createBranch(repository: string, branch: string, from: string): void;
  /** the pull request as GitHub's REST API shows it (the `pull_request` of its webhooks), head and base shas included */
  pullJson(repository: string, number: number): any;
  // ---- docs drafts (issue 18 §3): what happens to a source pull request (github-host-pulls.ts) ----
  /** commits `files` on the pull request's head branch; returns the push's before and after shas */
  pushToPullRequest(
    repository: string,
    number: number,
    files: Record<string, string | null>,
    message: string,
  ): { before: string; after: string };
  /** merges (base moves to head) or closes it without merging, as a person on GitHub's page would */
  closePullRequest(repository: string, number: number, merge: boolean): PullRequest;
  reopenPullRequest(repository: string, number: number): PullRequest;
  /** a review by `login` */
  addReview(
    repository: string,
    number: number,
    login: string,
    state?: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED',
  ): void;
  close(): Promise<void>;
}

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};
const SEED_IDENTITY = [
  '-c',
  'user.name=Docs Author',
  '-c',
  'user.email=author@example.com',
  '-c',
  'commit.gpgsign=false',
];

function runGit(args: string[], cwd?: string): string {
  return execFileSync('git', args, {
    cwd,
    env: { ...process.env, ...GIT_ENV },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

function base64url(text: string): Buffer {
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

function verifyAppJwt(jwt: string, publicKey: KeyObject, appId: number): boolean {
  const [header, payload, signature] = jwt.split('.');
  if (!header || !payload || !signature) return false;
  if (!verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), publicKey, base64url(signature))) return false;
  const claims = JSON.parse(base64url(payload).toString('utf8')) as { iss?: unknown; exp?: number };
  return String(claims.iss) === String(appId) && typeof claims.exp === 'number' && claims.exp * 1000 > Date.now();
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startGitHubHost(options: { appId?: number; slug?: string } = {}): Promise<GitHubHost> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-ghe-'));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const app = {
    id: options.appId ?? 4242,
    slug: options.slug ?? 'scribe-docs',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    botUserId: 900_001,
  };
  const verifyKey = createPublicKey(publicKey.export({ type: 'spki', format: 'pem' }));
  const installations = new Map<number, Set<string>>();
  const calls: RecordedCall[] = [];
  const gitRequests: GitRequest[] = [];
  const tokens: IssuedToken[] = [];
  const pulls: PullRequest[] = [];
  const comments: PostedComment[] = [];
  const manifests: { manifest: Record<string, any>; organization: string | null; code: string }[] = [];
  const permissions = new Map<string, string>();
  const defaultBranches = new Map<string, string>();
  const failures: { method: string; pattern: RegExp; status: number; message: string }[] = [];
  const delays: { method: string; pattern: RegExp; ms: number }[] = [];
  const holds: { method: string; pattern: RegExp; arrived(): void; released: Promise<void> }[] = [];
  let baseUrl = '';

  const repoDir = (repository: string) => path.join(root, `${repository}.git`);
  const exists = (repository: string) => fs.existsSync(repoDir(repository));
  const tokenInfo = (token: string | undefined) =>
    tokens.find((t) => t.token === token && Date.now() - t.issuedAt < 3_600_000);
  const canReach = (token: string | undefined, repository: string) => {
    const info = tokenInfo(token);
    return !!info && !!installations.get(info.installationId)?.has(repository);
  };
  const branchExists = (repository: string, branch: string) => {
    try {
      runGit(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], repoDir(repository));
      return true;
    } catch {
      return false;
    }
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const notFound = (res: ServerResponse) =>
    send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
  const repoJson = (repository: string) => {
    const [owner, name] = repository.split('/');
    return {
      id: 1,
      name,
      full_name: repository,
      private: true,
      default_branch: defaultBranches.get(repository) ?? 'main',
      html_url: `${baseUrl}/${repository}`,
      owner: { login: owner },
    };
  };
  const prJson = (pr: PullRequest) => ({
    id: pr.number * 1000,
    number: pr.number,
    html_url: pr.html_url,
    url: `${baseUrl}/api/v3/repos/${pr.repository}/pulls/${pr.number}`,
    state: pr.state,
    title: pr.title,
    body: pr.body,
    draft: pr.draft,
    head: {
      ref: pr.head,
      label: `${(pr.fork ?? pr.repository).split('/')[0]}:${pr.head}`,
      sha: pr.headSha ?? revParse(pr.repository, `refs/heads/${pr.head}`),
      repo: repoJson(pr.fork ?? pr.repository),
    },
    base: { ref: pr.base, sha: revParse(pr.repository, `refs/heads/${pr.base}`), repo: repoJson(pr.repository) },
    user: pr.user
      ? { login: pr.user, id: 7_000 + pr.number, type: 'User' }
      : { login: `${app.slug}[bot]`, type: 'Bot' },
    changed_files: pr.user ? pullFiles(pr).length : 0,
    // node_id, merged, merged_at, requested_reviewers: the docs drafts' part (github-host-pulls.ts)
    ...pullJson(pr),
  });

  const statuses: CommitStatus[] = [];
  const associated: { repository: string; sha: string; number: number; title: string; body: string }[] = [];
  const git = (repository: string, args: string[]) => runGit(args, repoDir(repository));
  const revParse = (repository: string, rev: string) => {
    try {
      return git(repository, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).trim();
    } catch {
      return null;
    }
  };

  /** Contents, commit statuses, branches, compare and commits' pull requests, in GitHub's shapes; null when not one of them. */
  function handleSourceRoutes(
    req: IncomingMessage,
    rest: string,
    repository: string,
    body: any,
    url: URL,
  ): [number, unknown] | null {
    const missing: [number, unknown] = [404, { message: 'Not Found' }];
    let m: RegExpMatchArray | null;
    if (req.method === 'GET' && (m = rest.match(/^\/contents\/(.+)$/))) {
      const file = decodeURIComponent(m[1]);
      const ref = url.searchParams.get('ref') ?? defaultBranches.get(repository) ?? 'main';
      const sha = revParse(repository, ref);
      // a folder is listed, as GitHub does: an array of its entries
      const isFolder = (() => {
        try {
          const kind = execFileSync('git', ['cat-file', '-t', `${ref}:${file}`], {
            cwd: repoDir(repository),
            stdio: ['ignore', 'pipe', 'ignore'],
          });
          return kind.toString().trim() === 'tree';
        } catch {
          return false;
        }
      })();
      if (sha && isFolder) {
        const names = git(repository, ['ls-tree', '--name-only', `${ref}:${file}`])
          .split('\n')
          .filter(Boolean);
        return [200, names.map((name) => ({ type: 'file', name, path: `${file}/${name}` }))];
      }
      let content: Buffer;
      try {
        content = execFileSync('git', ['show', `${ref}:${file}`], {
          cwd: repoDir(repository),
          maxBuffer: 64 * 1024 * 1024,
        });
      } catch {
        return missing;
      }
      if (!sha) return missing;
      return [
        200,
        {
          type: 'file',
          encoding: 'base64',
          size: content.length,
          name: path.basename(file),
          path: file,
          content: content.toString('base64'),
          sha: git(repository, ['rev-parse', `${ref}:${file}`]).trim(),
        },
      ];
    }
    if (req.method === 'POST' && (m = rest.match(/^\/statuses\/([0-9a-f]{40})$/))) {
      if (!revParse(repository, m[1])) return [422, { message: `No commit found for SHA: ${m[1]}` }];
      const status: CommitStatus = {
        repository,
        sha: m[1],
        state: body?.state,
        context: body?.context ?? 'default',
        description: body?.description ?? null,
      };
      statuses.push(status);
      return [
        201,
        { id: statuses.length, state: status.state, context: status.context, description: status.description },
      ];
    }
    if (req.method === 'GET' && (m = rest.match(/^\/branches\/([^/]+)$/))) {
      const sha = branchExists(repository, decodeURIComponent(m[1]))
        ? revParse(repository, `refs/heads/${decodeURIComponent(m[1])}`)
        : null;
      return sha ? [200, { name: decodeURIComponent(m[1]), commit: { sha } }] : missing;
    }
    if (req.method === 'GET' && (m = rest.match(/^\/compare\/(.+?)\.\.\.(.+)$/))) {
      const [base, head] = [
        revParse(repository, decodeURIComponent(m[1])),
        revParse(repository, decodeURIComponent(m[2])),
      ];
      if (!base || !head) return missing;
      const commits = git(repository, ['log', '--reverse', '--format=%H%x09%an%x09%ae%x09%B%x00', `${base}..${head}`])
        .split('\0')
        .map((entry) => entry.replace(/^\n/, ''))
        .filter(Boolean)
        .map((entry) => {
          const [sha, name, email, ...message] = entry.split('\t');
          return {
            sha,
            html_url: `${baseUrl}/${repository}/commit/${sha}`,
            commit: { message: message.join('\t').trim(), author: { name, email, date: '2026-01-01T00:00:00Z' } },
            author: null,
          };
        });
      const files = git(repository, ['diff', '--numstat', base, head])
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [added, deleted, filename] = line.split('\t');
          const patch = git(repository, ['diff', base, head, '--', filename]).split('\n').slice(4).join('\n');
          const status =
            revParse(repository, base) && !git(repository, ['ls-tree', base, '--', filename]).trim()
              ? 'added'
              : 'modified';
          return {
            filename,
            status,
            additions: Number(added),
            deletions: Number(deleted),
            changes: Number(added) + Number(deleted),
            patch,
          };
        });
      return [
        200,
        {
          status: 'ahead',
          ahead_by: commits.length,
          behind_by: 0,
          total_commits: commits.length,
          html_url: `${baseUrl}/${repository}/compare/${m[1]}...${m[2]}`,
          commits,
          files,
        },
      ];
    }
    if (req.method === 'GET' && (m = rest.match(/^\/commits\/([0-9a-f]{40})\/pulls$/))) {
      const list = associated.filter((a) => a.repository === repository && a.sha === m![1]);
      return [
        200,
        list.map((a) => ({
          id: a.number * 1000,
          number: a.number,
          title: a.title,
          body: a.body,
          state: 'closed',
          html_url: `${baseUrl}/${repository}/pull/${a.number}`,
          merged_at: '2026-01-01T00:00:00Z',
        })),
      ];
    }
    return null;
  }

  // ---- docs reviews (issue 18 §2, §4): pull request files, the Checks API, comments edited in place ----
  const checkRuns: CheckRun[] = [];
  /** beyond this many characters the files listing sends no patch for a file */
  const MAX_LISTED_PATCH = 100_000;
  const filesCache = new Map<string, any[]>();

  /** GitHub's pull request files of base...head: status (renames found), counts, and a patch unless binary. */
  function pullFiles(pr: PullRequest): any[] {
    const head = revParse(pr.repository, `refs/heads/${pr.head}`);
    const base = pr.mergedFrom ?? revParse(pr.repository, `refs/heads/${pr.base}`);
    if (!head || !base) return [];
    const key = `${pr.repository}#${base}...${head}`;
    const cached = filesCache.get(key);
    if (cached) return cached;
    const mergeBase = git(pr.repository, ['merge-base', base, head]).trim();
    const statuses = git(pr.repository, ['diff', '-M', '--name-status', '-z', mergeBase, head]).split('\0');
    const numstat = git(pr.repository, ['diff', '-M', '--numstat', '-z', mergeBase, head]);
    const patches = new Map<string, string>();
    const full = git(pr.repository, ['diff', '-M', '--no-color', '--no-prefix', mergeBase, head]);
    for (const chunk of full.split(/^diff --git /m).slice(1)) {
      const lines = chunk.split('\n');
      const target = lines.find((l) => l.startsWith('+++ '))?.slice(4);
      const source = lines.find((l) => l.startsWith('--- '))?.slice(4);
      const name = target && target !== '/dev/null' ? target : source;
      const at = lines.findIndex((l) => l.startsWith('@@'));
      if (name && at >= 0) patches.set(name, lines.slice(at).join('\n').replace(/\n$/, ''));
    }
    const counts: { added: number; deleted: number }[] = [];
    const numParts = numstat.split('\0');
    for (let i = 0; i < numParts.length; i++) {
      const fields = numParts[i].split('\t');
      if (fields.length < 3) continue;
      counts.push({ added: Number(fields[0]) || 0, deleted: Number(fields[1]) || 0 });
      if (fields[2] === '') i += 2; // a rename: the old and new names follow
    }
    const files: any[] = [];
    for (let i = 0; i < statuses.length && statuses[i]; ) {
      const code = statuses[i];
      const renamed = code.startsWith('R') || code.startsWith('C');
      const previous = renamed ? statuses[i + 1] : undefined;
      const filename = renamed ? statuses[i + 2] : statuses[i + 1];
      i += renamed ? 3 : 2;
      const count = counts[files.length] ?? { added: 0, deleted: 0 };
      const status = { A: 'added', D: 'removed', M: 'modified', R: 'renamed', C: 'copied', T: 'changed' }[
        code[0] as 'A'
      ];
      // GitHub leaves out the patch of a large diff (and of a binary file, which has no hunks)
      const found = patches.get(filename);
      const patch = found !== undefined && found.length <= MAX_LISTED_PATCH ? found : undefined;
      files.push({
        sha: head,
        filename,
        status,
        additions: count.added,
        deletions: count.deleted,
        changes: count.added + count.deleted,
        ...(patch !== undefined ? { patch } : {}),
        ...(previous ? { previous_filename: previous } : {}),
      });
    }
    filesCache.set(key, files);
    return files;
  }

  const checkRunJson = (run: CheckRun) => ({
    id: run.id,
    name: run.name,
    head_sha: run.head_sha,
    status: run.status,
    conclusion: run.conclusion,
    external_id: run.external_id,
    html_url: `${baseUrl}/${run.repository}/runs/${run.id}`,
    output: { title: run.output.title ?? null, summary: run.output.summary ?? null, text: run.output.text ?? null },
    app: { id: app.id, slug: app.slug },
  });

  /** What the Checks API refuses in a create or update body, as its 422 message; null when valid. */
  function checkRunProblem(body: any): string | null {
    const output = body?.output;
    if (output !== undefined) {
      if (typeof output?.title !== 'string' || typeof output?.summary !== 'string')
        return 'output needs a title and a summary';
      if (output.summary.length > 65_535) return 'output.summary is too long (maximum is 65535 characters)';
      if (typeof output.text === 'string' && output.text.length > 65_535) return 'output.text is too long';
    }
    const actions = body?.actions ?? [];
    if (!Array.isArray(actions) || actions.length > 3) return 'at most 3 actions';
    for (const a of actions)
      if (
        typeof a?.label !== 'string' ||
        a.label.length > 20 ||
        typeof a.description !== 'string' ||
        a.description.length > 40 ||
        typeof a.identifier !== 'string' ||
        a.identifier.length > 20
      )
        return 'an action needs a label (20), a description (40) and an identifier (20)';
    if (body?.status === 'completed' && !body?.conclusion) return 'a completed check run needs a conclusion';
    return null;
  }

  /** Pull request files, check runs, and conversation comments read, edited and deleted; null when not one of them. */
  function handleReviewRoutes(
    req: IncomingMessage,
    rest: string,
    repository: string,
    body: any,
    url: URL,
  ): [number, unknown, Record<string, string>?] | null {
    let m: RegExpMatchArray | null;
    const invalid = (message: string): [number, unknown] => [422, { message: `Invalid request. ${message}` }];
    if (req.method === 'GET' && (m = rest.match(/^\/pulls\/(\d+)\/files$/))) {
      const pr = pulls.find((p) => p.repository === repository && p.number === Number(m![1]));
      if (!pr) return [404, { message: 'Not Found' }];
      // GitHub lists at most 3,000 files, up to 100 a page
      const all = pullFiles(pr).slice(0, 3_000);
      const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), 100);
      const page = Number(url.searchParams.get('page') ?? 1);
      const headers: Record<string, string> = {};
      if (page * perPage < all.length) {
        const next = new URL(`${baseUrl}${url.pathname}${url.search}`);
        next.searchParams.set('page', String(page + 1));
        headers.link = `<${next}>; rel="next"`;
      }
      return [200, all.slice((page - 1) * perPage, page * perPage), headers];
    }
    if (req.method === 'POST' && rest === '/check-runs') {
      if (typeof body?.name !== 'string' || !body.name) return invalid('name is missing');
      if (typeof body?.head_sha !== 'string' || !revParse(repository, body.head_sha))
        return invalid(`No commit found for SHA: ${body?.head_sha}`);
      const problem = checkRunProblem(body);
      if (problem) return invalid(problem);
      const run: CheckRun = {
        id: 5_000_000_000 + checkRuns.length + 1,
        repository,
        name: body.name,
        head_sha: body.head_sha,
        status: body.status ?? 'queued',
        conclusion: body.conclusion ?? null,
        external_id: body.external_id ?? null,
        output: body.output ?? {},
        actions: body.actions ?? [],
        writes: [body],
      };
      checkRuns.push(run);
      return [201, checkRunJson(run)];
    }
    if ((m = rest.match(/^\/check-runs\/(\d+)$/))) {
      const run = checkRuns.find((r) => r.repository === repository && r.id === Number(m![1]));
      if (!run) return [404, { message: 'Not Found' }];
      if (req.method === 'GET') return [200, checkRunJson(run)];
      if (req.method === 'PATCH') {
        const problem = checkRunProblem(body);
        if (problem) return invalid(problem);
        if (body.status) run.status = body.status;
        if (body.conclusion) {
          run.conclusion = body.conclusion;
          run.status = 'completed';
        }
        if (body.output) run.output = body.output;
        if (body.actions) run.actions = body.actions;
        run.writes.push(body);
        return [200, checkRunJson(run)];
      }
    }
    if (req.method === 'GET' && (m = rest.match(/^\/commits\/([^/]+)\/check-runs$/))) {
      const sha = revParse(repository, decodeURIComponent(m[1]));
      const name = url.searchParams.get('check_name');
      const list = checkRuns.filter(
        (r) => r.repository === repository && r.head_sha === sha && (!name || r.name === name),
      );
      return [200, { total_count: list.length, check_runs: list.map(checkRunJson) }];
    }
    if ((m = rest.match(/^\/issues\/comments\/(\d+)$/))) {
      const comment = comments.find((c) => c.repository === repository && c.id === Number(m![1]) && !c.deleted);
      if (!comment) return [404, { message: 'Not Found' }];
      if (req.method === 'PATCH') {
        comment.body = String(body?.body ?? '');
        comment.edits = (comment.edits ?? 0) + 1;
        return [200, { id: comment.id, body: comment.body }];
      }
      if (req.method === 'DELETE') {
        comment.deleted = true;
        return [204, null];
      }
    }
    if (req.method === 'GET' && (m = rest.match(/^\/issues\/(\d+)\/comments$/))) {
      const list = comments.filter(
        (c) => c.repository === repository && c.number === Number(m![1]) && c.inReplyTo === null && !c.deleted,
      );
      return [200, list.map((c) => ({ id: c.id, body: c.body, user: { login: `${app.slug}[bot]`, type: 'Bot' } }))];
    }
    return null;
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const route = url.pathname.slice('/api/v3'.length) || '/';
    const raw = await readBody(req);
    const body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : undefined;
    const header = req.headers.authorization ?? '';
    const [scheme, credential] = header.split(/\s+/, 2);
    const isJwt = /^bearer$/i.test(scheme ?? '') && (credential ?? '').split('.').length === 3;
    const token = !isJwt && credential ? credential : undefined;
    const call: RecordedCall = {
      method: req.method ?? 'GET',
      path: route,
      query: Object.fromEntries(url.searchParams),
      body,
      auth: isJwt ? 'jwt' : token ? 'token' : 'none',
      token,
      at: Date.now(),
    };
    calls.push(call);
    const delay = delays.findIndex((d) => d.method === call.method && d.pattern.test(route));
    if (delay >= 0) {
      const [d] = delays.splice(delay, 1);
      await new Promise((resolve) => setTimeout(resolve, d.ms));
    }
    const held = holds.findIndex((h) => h.method === call.method && h.pattern.test(route));
    if (held >= 0) {
      const [h] = holds.splice(held, 1);
      h.arrived();
      await h.released;
    }
    const failure = failures.findIndex((f) => f.method === call.method && f.pattern.test(route));
    if (failure >= 0) {
      const [f] = failures.splice(failure, 1);
      return send(res, f.status, { message: f.message });
    }
    const jwtOk = isJwt && verifyAppJwt(credential!, verifyKey, app.id);
    const requireJwt = () => {
      if (!jwtOk) send(res, 401, { message: 'A JSON web token could not be decoded' });
      return jwtOk;
    };
    let m: RegExpMatchArray | null;

    if (req.method === 'GET' && route === '/app') {
      if (!requireJwt()) return;
      return send(res, 200, {
        id: app.id,
        slug: app.slug,
        name: 'Scribe Docs',
        owner: { login: 'acme' },
        html_url: `${baseUrl}/apps/${app.slug}`,
      });
    }
    if (req.method === 'GET' && (m = route.match(/^\/users\/([^/]+)$/))) {
      const login = decodeURIComponent(m[1]);
      if (login === `${app.slug}[bot]`) return send(res, 200, { login, id: app.botUserId, type: 'Bot' });
      return notFound(res);
    }
    if (req.method === 'POST' && (m = route.match(/^\/app\/installations\/(\d+)\/access_tokens$/))) {
      if (!requireJwt()) return;
      const installationId = Number(m[1]);
      if (!installations.has(installationId)) return notFound(res);
      const issued: IssuedToken = {
        token: `ghs_${randomBytes(18).toString('hex')}`,
        installationId,
        issuedAt: Date.now(),
      };
      tokens.push(issued);
      return send(res, 201, {
        token: issued.token,
        expires_at: new Date(issued.issuedAt + 3_600_000).toISOString(),
        permissions: { contents: 'write', pull_requests: 'write' },
        repository_selection: 'selected',
      });
    }
    const conversion = route.match(/^\/app-manifests\/([^/]+)\/conversions$/);
    if (req.method === 'POST' && conversion) {
      const index = manifests.findIndex((m) => m.code === conversion[1]);
      if (index < 0) return notFound(res);
      const { manifest } = manifests[index];
      // A code converts once.
      manifests[index] = { ...manifests[index], code: '' };
      return send(res, 201, {
        id: app.id,
        slug: app.slug,
        name: manifest.name,
        html_url: `${baseUrl}/apps/${app.slug}`,
        pem: app.privateKey,
        webhook_secret: 'generated-webhook-secret',
        client_id: 'Iv1.local',
        client_secret: 'client-secret',
        events: manifest.default_events,
        permissions: manifest.default_permissions,
      });
    }
    if (req.method === 'GET' && route === '/installation/repositories') {
      const info = tokenInfo(token);
      if (!info) return send(res, 401, { message: 'Bad credentials' });
      const names = [...(installations.get(info.installationId) ?? [])].filter(exists).sort();
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      const slice = names.slice((page - 1) * perPage, page * perPage);
      if (page * perPage < names.length) {
        const next = new URL(url.toString().replace('http://localhost', baseUrl));
        next.searchParams.set('page', String(page + 1));
        res.setHeader('link', `<${next}>; rel="next"`);
      }
      return send(res, 200, { total_count: names.length, repositories: slice.map(repoJson) });
    }
    if ((m = route.match(/^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/))) {
      const repository = `${m[1]}/${m[2]}`;
      const rest = m[3] ?? '';
      if (req.method === 'GET' && rest === '/installation') {
        if (!requireJwt()) return;
        const found = [...installations].find(([, repos]) => repos.has(repository));
        return found ? send(res, 200, { id: found[0], app_id: app.id }) : notFound(res);
      }
      if (!exists(repository) || !canReach(token, repository)) return notFound(res);
      if (req.method === 'GET' && rest === '') return send(res, 200, repoJson(repository));
      const sourceRoute = handleSourceRoutes(req, rest, repository, body, url);
      if (sourceRoute) return send(res, sourceRoute[0], sourceRoute[1]);
      const reviewRoute = handleReviewRoutes(req, rest, repository, body, url);
      if (reviewRoute) {
        if (reviewRoute[2]) for (const [name, value] of Object.entries(reviewRoute[2])) res.setHeader(name, value);
        return send(res, reviewRoute[0], reviewRoute[1]);
      }
      const permission = rest.match(/^\/collaborators\/([^/]+)\/permission$/);
      if (req.method === 'GET' && permission) {
        const login = decodeURIComponent(permission[1]);
        const role = permissions.get(`${repository}#${login.toLowerCase()}`);
        if (!role) return notFound(res);
        const legacy = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
        return send(res, 200, { permission: legacy, role_name: role, user: { login, type: 'User' } });
      }
      const reply = rest.match(/^\/pulls\/(\d+)\/comments\/(\d+)\/replies$/);
      if (req.method === 'POST' && reply) {
        if (!pulls.some((p) => p.repository === repository && p.number === Number(reply[1]))) return notFound(res);
        const posted: PostedComment = {
          id: comments.length + 1,
          repository,
          number: Number(reply[1]),
          body: String(body?.body ?? ''),
          inReplyTo: Number(reply[2]),
          token,
        };
        comments.push(posted);
        return send(res, 201, { id: posted.id, body: posted.body, in_reply_to_id: posted.inReplyTo });
      }
      const issueComment = rest.match(/^\/issues\/(\d+)\/comments$/);
      if (req.method === 'POST' && issueComment) {
        const number = Number(issueComment[1]);
        const posted: PostedComment = {
          id: comments.length + 1,
          repository,
          number,
          body: String(body?.body ?? ''),
          inReplyTo: null,
          token,
        };
        comments.push(posted);
        pulls.find((p) => p.repository === repository && p.number === number)?.comments.push(posted.body);
        return send(res, 201, { id: posted.id, body: posted.body });
      }
      if (req.method === 'GET' && rest === '/pulls') {
        const head = url.searchParams.get('head');
        const state = url.searchParams.get('state') ?? 'open';
        const list = pulls.filter(
          (p) =>
            p.repository === repository &&
            (state === 'all' || p.state === state) &&
            (!head || `${m![1]}:${p.head}` === head),
        );
        return send(res, 200, list.map(prJson));
      }
      if (req.method === 'POST' && rest === '/pulls') {
        const { head, base, title } = body as { head: string; base: string; title: string };
        const headBranch = head.includes(':') ? head.split(':')[1] : head;
        if (!branchExists(repository, headBranch) || !branchExists(repository, base)) {
          return send(res, 422, {
            message: 'Validation Failed',
            errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }],
          });
        }
        if (pulls.some((p) => p.repository === repository && p.head === headBranch && p.state === 'open')) {
          return send(res, 422, {
            message: 'Validation Failed',
            errors: [{ message: `A pull request already exists for ${head}.` }],
          });
        }
        const number = pulls.filter((p) => p.repository === repository).length + 1;
        const pr: PullRequest = {
          number,
          repository,
          title,
          body: String(body?.body ?? ''),
          draft: body?.draft === true,
          head: headBranch,
          base,
          state: 'open',
          html_url: `${baseUrl}/${repository}/pull/${number}`,
          comments: [],
        };
        pulls.push(pr);
        return send(res, 201, prJson(pr));
      }
      const lifeCycle = pullRoute({
        req,
        rest,
        repository,
        body,
        pulls,
        comments,
        canSee: (login) => permissions.has(`${repository}#${login.toLowerCase()}`),
        json: prJson,
      });
      if (lifeCycle) return send(res, lifeCycle[0], lifeCycle[1]);
      const prMatch = rest.match(/^\/(pulls|issues)\/(\d+)(\/comments)?$/);
      const pr = prMatch && pulls.find((p) => p.repository === repository && p.number === Number(prMatch[2]));
      if (prMatch && pr) {
        if (prMatch[1] === 'pulls' && !prMatch[3] && req.method === 'GET') return send(res, 200, prJson(pr));
        if (prMatch[1] === 'pulls' && !prMatch[3] && req.method === 'PATCH') {
          if (typeof body?.title === 'string') pr.title = body.title;
          if (typeof body?.body === 'string') pr.body = body.body;
          if (body?.state === 'open' || body?.state === 'closed') pr.state = body.state;
          return send(res, 200, prJson(pr));
        }
      }
    }
    return notFound(res);
  }

  async function handleGit(req: IncomingMessage, res: ServerResponse, url: URL, repository: string): Promise<void> {
    const service = url.searchParams.get('service') ?? url.pathname.split('/').pop() ?? '';
    const header = req.headers.authorization ?? '';
    const basic = header.match(/^Basic\s+(\S+)$/i);
    const [user, token] = basic ? Buffer.from(basic[1], 'base64').toString('utf8').split(':', 2) : [];
    const record = (status: number) =>
      gitRequests.push({
        method: req.method ?? 'GET',
        repository,
        service,
        token: token ?? null,
        status,
        at: Date.now(),
      });
    if (!basic || user !== 'x-access-token' || !canReach(token, repository)) {
      record(basic ? 403 : 401);
      // A token that cannot reach the repository looks exactly like a missing repository, as on GitHub.
      res.writeHead(
        basic ? 404 : 401,
        basic ? { 'content-type': 'text/plain' } : { 'www-authenticate': 'Basic realm="GitHub"' },
      );
      res.end(basic ? 'Repository not found.\n' : 'Authentication required\n');
      return;
    }
    if (!exists(repository)) {
      record(404);
      res.writeHead(404).end('Repository not found.\n');
      return;
    }
    const child = spawn('git', ['-c', 'http.receivepack=true', '-c', 'uploadpack.allowFilter=true', 'http-backend'], {
      env: {
        PATH: process.env.PATH,
        HOME: root,
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: url.pathname,
        REQUEST_METHOD: req.method ?? 'GET',
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: user,
        REMOTE_ADDR: '127.0.0.1',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
        GIT_HTTP_MAX_REQUEST_BUFFER: '100M',
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('utf8').split('\r\n')) {
        const i = line.indexOf(':');
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (/^status$/i.test(name)) status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      record(status);
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    await new Promise<void>((resolve) => child.on('close', () => resolve()));
    if (!headersDone) {
      record(500);
      res.writeHead(500).end('git http-backend failed\n');
      return;
    }
    res.end();
  }

  /** GraphQL (github-host-pulls.ts), recorded among the calls as `POST /graphql`. */
  async function handleGraphql(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const body = raw.length ? JSON.parse(raw.toString('utf8')) : {};
    const token = (req.headers.authorization ?? '').split(/\s+/, 2)[1];
    calls.push({
      method: 'POST',
      path: '/graphql',
      query: {},
      body,
      auth: token ? 'token' : 'none',
      token,
      at: Date.now(),
    });
    const [status, answer] = graphql({ body, pulls, canReach: (repository) => canReach(token, repository) });
    send(res, status, answer);
  }

  /** The browser side of the manifest flow: GitHub's "new GitHub App" form posts here, then redirects back with a code. */
  async function handleNewApp(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    organization: string | null,
  ): Promise<void> {
    const form = new URLSearchParams((await readBody(req)).toString('utf8'));
    const manifest = JSON.parse(form.get('manifest') ?? '{}') as Record<string, any>;
    const code = randomBytes(10).toString('hex');
    manifests.push({ manifest, organization, code });
    const back = new URL(String(manifest.redirect_url));
    back.searchParams.set('code', code);
    const state = url.searchParams.get('state');
    if (state) back.searchParams.set('state', state);
    res.writeHead(302, { location: back.toString() }).end();
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const newApp =
      req.method === 'POST' ? url.pathname.match(/^(?:\/organizations\/([^/]+))?\/settings\/apps\/new$/) : null;
    if (newApp) {
      handleNewApp(req, res, url, newApp[1] ?? null).catch((err: Error) => send(res, 500, { message: err.message }));
      return;
    }
    if (req.method === 'POST' && url.pathname === '/api/graphql') {
      handleGraphql(req, res).catch((err: Error) => send(res, 500, { message: err.message }));
      return;
    }
    const git = url.pathname.match(/^\/([^/]+)\/([^/]+)\.git\/(info\/refs|git-upload-pack|git-receive-pack)$/);
    const work =
      url.pathname.startsWith('/api/v3/') || url.pathname === '/api/v3'
        ? handleApi(req, res, url)
        : git
          ? handleGit(req, res, url, `${git[1]}/${git[2]}`)
          : Promise.resolve(notFound(res));
    work.catch((err: Error) => {
      if (!res.headersSent) send(res, 500, { message: err.message });
      else res.end();
    });
  });
  server.keepAliveTimeout = TEST_KEEP_ALIVE_SECONDS * 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  const host: GitHubHost = {
    url: baseUrl,
    host: `127.0.0.1:${port}`,
    app,
    calls,
    gitRequests,
    tokens,
    pulls,
    comments,
    manifests,
    setPermission(repository, login, role) {
      permissions.set(`${repository}#${login.toLowerCase()}`, role);
    },
    addInstallation(id, repositories) {
      installations.set(id, new Set(repositories));
    },
    revokeAccess(repository) {
      for (const repos of installations.values()) repos.delete(repository);
    },
    createRepository(repository, files, branch = 'main', links = {}) {
      const bare = repoDir(repository);
      defaultBranches.set(repository, branch);
      fs.mkdirSync(bare, { recursive: true });
      runGit(['init', '--quiet', '--bare', '-b', branch, bare]);
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-seed-'));
      try {
        runGit(['init', '--quiet', '-b', branch, work]);
        for (const [file, content] of Object.entries(files)) {
          fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
          fs.writeFileSync(path.join(work, file), content);
        }
        for (const [link, target] of Object.entries(links)) fs.symlinkSync(target, path.join(work, link));
        runGit(['add', '--all'], work);
        runGit([...SEED_IDENTITY, 'commit', '--quiet', '-m', 'Initial docs'], work);
        runGit(['push', '--quiet', bare, `${branch}:${branch}`], work);
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
    },
    protectBranches(repository, pattern) {
      const hook = path.join(repoDir(repository), 'hooks', 'pre-receive');
      fs.writeFileSync(
        hook,
        `#!/bin/sh\nwhile read old new ref; do\n  case "$ref" in\n    refs/heads/${pattern}) echo "error: GH006: Protected branch update failed for $ref." >&2; exit 1;;\n  esac\ndone\nexit 0\n`,
        { mode: 0o755 },
      );
    },
    delayNext(method, pathPattern, ms) {
      delays.push({ method, pattern: pathPattern, ms });
    },
    holdNext(method, pathPattern) {
      let arrived = () => {};
      let release = () => {};
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.push({ method, pattern: pathPattern, arrived, released });
      return { reached, release };
    },
    failNext(method, pathPattern, status, message = 'Server Error') {
      failures.push({ method, pattern: pathPattern, status, message });
    },
    statuses,
    commitFiles(repository, branch, files, message, author = 'Code Author') {
      const before = revParse(repository, `refs/heads/${branch}`)!;
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-seed-'));
      try {
        runGit(['clone', '--quiet', '--branch', branch, repoDir(repository), work]);
        for (const [file, content] of Object.entries(files)) {
          if (content === null) fs.rmSync(path.join(work, file), { force: true });
          else {
            fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
            fs.writeFileSync(path.join(work, file), content);
          }
        }
        runGit(['add', '--all'], work);
        runGit(
          [
            '-c',
            `user.name=${author}`,
            '-c',
            'user.email=code@example.com',
            '-c',
            'commit.gpgsign=false',
            'commit',
            '--quiet',
            '-m',
            message,
          ],
          work,
        );
        runGit(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], work);
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
      return { before, after: revParse(repository, `refs/heads/${branch}`)! };
    },
    associatePull(repository, sha, pull) {
      associated.push({ repository, sha, ...pull });
    },
    branches(repository) {
      return runGit(['for-each-ref', '--format=%(refname:short)', 'refs/heads/'], repoDir(repository))
        .split('\n')
        .filter(Boolean);
    },
    readFile(repository, ref, file) {
      try {
        return runGit(['show', `${ref}:${file}`], repoDir(repository));
      } catch {
        return null;
      }
    },
    listFiles(repository, ref) {
      return runGit(['ls-tree', '-r', '--name-only', ref], repoDir(repository)).split('\n').filter(Boolean);
    },
    diff(repository, base, head, options = []) {
      return runGit(['diff', ...options, `${base}..${head}`], repoDir(repository));
    },
    log(repository, ref) {
      return runGit(['log', '--format=%H%x09%an%x09%ae%x09%s', ref], repoDir(repository))
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [sha, author, email, subject] = line.split('\t');
          return { sha, author, email, subject };
        });
    },
    checkRuns,
    openPullRequest(repository, params) {
      const number = pulls.filter((p) => p.repository === repository).length + 1;
      const pr: PullRequest = {
        number,
        repository,
        title: params.title ?? `Change ${params.head}`,
        body: params.body ?? '',
        draft: params.draft ?? false,
        head: params.head,
        base: params.base ?? defaultBranches.get(repository) ?? 'main',
        state: 'open',
        html_url: `${baseUrl}/${repository}/pull/${number}`,
        comments: [],
        user: params.user ?? 'dev-dana',
        ...(params.fork ? { fork: params.fork } : {}),
        merged: false,
        requestedReviewers: [],
        reviews: [],
      };
      pulls.push(pr);
      return pr;
    },
    pushToPullRequest(repository, number, files, message) {
      const pr = pulls.find((p) => p.repository === repository && p.number === number)!;
      return host.commitFiles(repository, pr.head, files, message, pr.user);
    },
    closePullRequest(repository, number, merge) {
      const pr = pulls.find((p) => p.repository === repository && p.number === number)!;
      if (merge) {
        const head = revParse(repository, `refs/heads/${pr.head}`)!;
        pr.mergedFrom = revParse(repository, `refs/heads/${pr.base}`) ?? undefined;
        git(repository, ['update-ref', `refs/heads/${pr.base}`, head]);
        pr.headSha = head;
      }
      pr.state = 'closed';
      pr.merged = merge;
      return pr;
    },
    reopenPullRequest(repository, number) {
      const pr = pulls.find((p) => p.repository === repository && p.number === number)!;
      pr.state = 'open';
      return pr;
    },
    addReview(repository, number, login, state = 'APPROVED') {
      const pr = pulls.find((p) => p.repository === repository && p.number === number)!;
      pr.reviews = [...(pr.reviews ?? []), { id: 7000 + (pr.reviews?.length ?? 0), user: login, state }];
    },
    createBranch(repository, branch, from) {
      git(repository, ['branch', branch, revParse(repository, from) ?? from]);
    },
    pullJson(repository, number) {
      const pr = pulls.find((p) => p.repository === repository && p.number === number);
      if (!pr) throw new Error(`no pull request ${repository}#${number}`);
      return prJson(pr);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  return host;
}
