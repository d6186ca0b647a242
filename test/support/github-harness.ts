import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createRequire } from 'node:module';
import { Webhooks } from '@octokit/webhooks';
import { startScribe, type RunningScribe } from '../../src/main.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createApiKey } from '../../src/keys/api-keys.js';
import { findDelivery, type DeliveryRecord } from '../../src/webhooks/deliveries.js';
import type { Provider } from './databases.js';
import type { CheckRun, GitHubHost, PullRequest } from './github-host.js';
import type { AnthropicStandIn } from './anthropic-server.js';
import { startStandIns } from './stand-ins.js';
import type { Database } from '../../src/db/client.js';
import { waitFor } from './wait-for.js';

export const WEBHOOK_SECRET = 'test-webhook-secret';

interface Example {
  name: string;
  examples: Record<string, any>[];
}
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as Example[];

/**
 * A real payload from @octokit/webhooks-examples (a deep copy), the first of `event` with this action that `pick`
 * accepts; tests then adapt repository, installation and users to the local GitHub host.
 */
export function examplePayload(event: string, action: string, pick: (payload: any) => boolean = () => true): any {
  const found = examples.find((e) => e.name === event)?.examples.find((p) => p.action === action && pick(p));
  if (!found) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found);
}

/** Points a payload's repository at owner/name on the local host. */
export function onRepository(payload: any, repository: string, installationId: number): any {
  const [owner, name] = repository.split('/');
  payload.repository = {
    ...payload.repository,
    name,
    full_name: repository,
    owner: { ...payload.repository.owner, login: owner },
  };
  payload.installation = { id: installationId, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' };
  return payload;
}

export function asUser(login: string, type: 'User' | 'Bot' = 'User'): Record<string, unknown> {
  return { login, id: login.length * 1000 + 7, node_id: 'MDQ6VXNlcjE=', type, site_admin: false };
}

/** A push of `before..after` to a branch (default `main`, the repository's default branch) by a user or bot. */
export function pushPayload(params: {
  repository: string;
  installationId: number;
  before: string;
  after: string;
  branch?: string;
  sender?: string;
  senderType?: 'User' | 'Bot';
  /** replaces the example's commits (which name files of their own) */
  commits?: unknown[];
}): any {
  const payload = onRepository(
    examplePayload('push', undefined as unknown as string),
    params.repository,
    params.installationId,
  );
  payload.ref = `refs/heads/${params.branch ?? 'main'}`;
  payload.before = params.before;
  payload.after = params.after;
  payload.deleted = false;
  payload.created = false;
  if (params.commits) payload.commits = params.commits;
  payload.repository.default_branch = 'main';
  payload.repository.master_branch = 'main';
  payload.sender = asUser(params.sender ?? 'dev-dana', params.senderType);
  payload.pusher = { name: params.sender ?? 'dev-dana', email: 'dana@example.com' };
  return payload;
}

/**
 * A pull_request delivery as GitHub sends it: a real example payload, its pull request replaced by the host's view
 * (`host.pullJson`: number, head and base with their shas, author, fork), on the repository and installation given.
 */
export function pullRequestPayload(params: {
  action: 'opened' | 'synchronize' | 'reopened' | 'ready_for_review' | 'closed' | 'edited';
  repository: string;
  installationId: number;
  pull: any;
  sender?: string;
  before?: string;
}): any {
  const example = examplePayload('pull_request', params.action === 'synchronize' ? 'synchronize' : 'opened');
  const payload = onRepository(example, params.repository, params.installationId);
  payload.action = params.action;
  payload.number = params.pull.number;
  payload.repository.default_branch = 'main';
  payload.pull_request = {
    ...example.pull_request,
    ...params.pull,
    head: { ...example.pull_request.head, ...params.pull.head },
    base: { ...example.pull_request.base, ...params.pull.base },
    user: { ...example.pull_request.user, ...params.pull.user },
  };
  if (params.action === 'synchronize') {
    payload.before = params.before ?? payload.before;
    payload.after = params.pull.head.sha;
  }
  payload.sender = asUser(params.sender ?? params.pull.user.login);
  return payload;
}

const signer = new Webhooks({ secret: WEBHOOK_SECRET });

/** POSTs a delivery signed as GitHub signs it to the Scribe at `url`; returns the HTTP status and the delivery id. */
export async function deliverTo(
  url: string,
  event: string,
  payload: unknown,
  options: { id?: string; signature?: string; raw?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; id: string; body: string }> {
  const id = options.id ?? randomUUID();
  const body = options.raw ?? JSON.stringify(payload);
  const res = await fetch(`${url}/api/github/webhooks`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': id,
      'x-hub-signature-256': options.signature ?? (await signer.sign(body)),
      'user-agent': 'GitHub-Hookshot/test',
      ...options.headers,
    },
  });
  return { status: res.status, id, body: await res.text() };
}

export interface GitHubE2E {
  github: GitHubHost;
  anthropic: AnthropicStandIn;
  database: Database & { drop(): Promise<void> };
  scribe: RunningScribe;
  /** the config the service was started with (another process on the same database starts from it) */
  config: Config;
  /** JSON log lines of the service */
  logs: Record<string, any>[];
  /** POSTs a signed delivery; returns the HTTP status and the delivery id */
  deliver(
    event: string,
    payload: unknown,
    options?: { id?: string; signature?: string; raw?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; id: string; body: string }>;
  /** waits until the delivery's background work has finished and returns its row */
  settled(id: string): Promise<DeliveryRecord>;
  /** deliver + settled */
  send(event: string, payload: unknown, options?: { id?: string }): Promise<DeliveryRecord>;
  keyFor(projectId: string): Promise<string>;
  api(path: string, init?: { method?: string; body?: unknown; key: string }): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** The real service in this process (HTTP, Probot webhooks, worker) against the local GitHub host and model stand-in. */
export async function startGitHubE2E(provider: Provider, extra: Record<string, string> = {}): Promise<GitHubE2E> {
  const standIns = await startStandIns(provider);
  const { github, anthropic, database } = standIns;
  const logs: Record<string, any>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        logs.push(JSON.parse(line) as Record<string, any>);
      callback();
    },
  });
  const env = standIns.env({ PORT: '0', ...extra });
  const config = { ...loadConfig(env), database: database.target };
  const scribe = await startScribe(config, createLogger('info', sink));

  const e2e: GitHubE2E = {
    github,
    anthropic,
    database,
    scribe,
    config,
    logs,
    deliver: (event, payload, options) => deliverTo(scribe.url, event, payload, options),
    async settled(id) {
      return waitFor(
        async () => {
          const row = await findDelivery(database.db, id);
          return row && row.status !== 'received' ? row : undefined;
        },
        `delivery ${id} to be processed`,
        20_000,
        20,
      );
    },
    async send(event, payload, options) {
      const { status, id } = await e2e.deliver(event, payload, options);
      if (status !== 200) throw new Error(`delivery answered ${status}`);
      return e2e.settled(id);
    },
    async keyFor(projectId) {
      return (await createApiKey({ db: database.db, clock: () => new Date(), projectId, scope: 'write' })).key;
    },
    async api(path, init) {
      const res = await fetch(`${scribe.url}${path}`, {
        method: init?.method ?? (init?.body === undefined ? 'GET' : 'POST'),
        headers: {
          authorization: `Bearer ${init?.key}`,
          ...(init?.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: init?.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return { status: res.status, body: await res.json() };
    },
    async close() {
      await scribe.stop();
      await standIns.close();
    },
  };
  return e2e;
}

// Source pull requests on the local host and the deliveries GitHub sends about them (docs drafts, reviews).

/** check_run.requested_action: `sender` pressed the button `identifier` of check run `checkRunId` on the head commit. */
export function checkRunActionPayload(params: {
  github: GitHubHost;
  pr: PullRequest;
  installationId: number;
  sender: string;
  /** the host's check run whose button was pressed */
  checkRun: CheckRun;
  identifier?: string;
  /** GitHub lists no pull requests on check runs of pull requests from forks */
  listPull?: boolean;
}): any {
  const payload = onRepository(
    examplePayload('check_run', 'requested_action'),
    params.pr.repository,
    params.installationId,
  );
  const json = params.github.pullJson(params.pr.repository, params.pr.number);
  const pulls =
    params.listPull === false
      ? []
      : [{ number: params.pr.number, head: { ref: json.head.ref, sha: json.head.sha }, base: { ref: json.base.ref } }];
  payload.check_run = {
    ...payload.check_run,
    id: params.checkRun.id,
    name: params.checkRun.name,
    head_sha: params.checkRun.head_sha,
    external_id: params.checkRun.external_id ?? '',
    output: { ...payload.check_run.output, ...params.checkRun.output },
    pull_requests: pulls,
    check_suite: { ...payload.check_run.check_suite, head_sha: json.head.sha, pull_requests: pulls },
    app: { ...payload.check_run.app, slug: params.github.app.slug, id: params.github.app.id },
  };
  payload.requested_action = { identifier: params.identifier ?? 'draft-docs' };
  payload.sender = asUser(params.sender);
  return payload;
}

/** issue_comment.created by `login` on pull request `number`. */
export function pullCommentPayload(params: {
  repository: string;
  installationId: number;
  number: number;
  login: string;
  body: string;
  commentId?: number;
}): any {
  const payload = onRepository(
    examplePayload('issue_comment', 'created', (p) => !!p.installation),
    params.repository,
    params.installationId,
  );
  payload.issue.number = params.number;
  payload.issue.pull_request = { url: `https://example.test/pulls/${params.number}`, html_url: '' };
  payload.comment = {
    ...payload.comment,
    id: params.commentId ?? Math.floor(Math.random() * 1e9),
    body: params.body,
    user: asUser(params.login),
  };
  payload.sender = asUser(params.login);
  return payload;
}
