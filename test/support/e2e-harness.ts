import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Provider } from './databases.js';
import type { GitHubHost } from './github-host.js';
import type { AnthropicStandIn, RecordedRequest } from './anthropic-server.js';
import { startScribeProcess, type ScribeProcess } from './scribe-process.js';
import { startStandIns } from './stand-ins.js';
import { addProject } from '../../src/projects/projects.js';
import { createApiKey } from '../../src/keys/api-keys.js';
import type { Database } from '../../src/db/client.js';
import { waitFor } from './wait-for.js';

export const INSTALLATION_ID = 77;

export const DOCS = {
  'docs.json': `${JSON.stringify({ name: 'Acme', navigation: [{ group: 'Start', pages: ['index', 'guide/start'] }] }, null, 2)}\n`,
  'index.mdx': '---\ntitle: Home\n---\n\n# Acme docs\n\nSee [the guide](/guide/start).\n',
  'guide/start.md': '# Start\n\nInstall the CLI.\n',
};

export interface Job {
  id: string;
  status: string;
  prLink: string | null;
  error: string | null;
  summary: string | null;
  source: { repository: string; ref: string };
  usage: { inputTokens: number; outputTokens: number };
  [field: string]: unknown;
}

/** Stand-ins, a migrated database with a project and a key, and a way to start real Scribe processes on them. */
export interface E2E {
  github: GitHubHost;
  anthropic: AnthropicStandIn;
  database: Database & { drop(): Promise<void> };
  /** TMPDIR of the Scribe processes: their workspaces live here */
  tmp: string;
  projectId: string;
  key: string;
  scribe: ScribeProcess;
  start(extra?: Record<string, string>): Promise<ScribeProcess>;
  /** a repository on the host and a project (with a write key) for it; `installed: false` keeps the App off it */
  addProject(
    repository: string,
    options?: { files?: Record<string, string>; links?: Record<string, string>; installed?: boolean },
  ): Promise<{ projectId: string; key: string }>;
  request(
    path: string,
    init?: { method?: string; body?: unknown; key?: string; on?: ScribeProcess },
  ): Promise<{ status: number; body: any }>;
  createJob(
    body: Record<string, unknown>,
    options?: { projectId?: string; key?: string; on?: ScribeProcess },
  ): Promise<Job>;
  job(id: string, projectId?: string): Promise<Job>;
  /** polls the job until `done` says so, for at most `timeoutMs` (30 s) */
  waitForJob(
    id: string,
    done: (job: Job) => boolean,
    what: string,
    projectId?: string,
    timeoutMs?: number,
  ): Promise<Job>;
  events(id: string, projectId?: string): Promise<{ type: string; [field: string]: unknown }[]>;
  close(): Promise<void>;
}

/** The current task of a request: its first message holds the task after `<task>`. */
export function forTask(marker: string): { match: (r: RecordedRequest) => boolean } {
  return {
    match: (r) => {
      const first = r.body.messages?.[0]?.content;
      const text = typeof first === 'string' ? first : JSON.stringify(first);
      return text.slice(text.lastIndexOf('<task>')).includes(marker);
    },
  };
}

export async function startE2E(provider: Provider, extra: Record<string, string> = {}): Promise<E2E> {
  const standIns = await startStandIns(provider);
  const { github, anthropic, database } = standIns;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-e2e-'));
  const processes: ScribeProcess[] = [];
  const clock = () => new Date();
  const keys = new Map<string, string>();
  const installed = new Set(['acme/docs']);
  const makeProject = async (
    repository: string,
    options: { files?: Record<string, string>; links?: Record<string, string>; installed?: boolean } = {},
  ) => {
    github.createRepository(repository, options.files ?? DOCS, 'main', options.links);
    if (options.installed !== false) installed.add(repository);
    github.addInstallation(INSTALLATION_ID, [...installed]);
    const project = await addProject({
      db: database.db,
      clock,
      repository,
      ref: 'main',
      installationId: INSTALLATION_ID,
    });
    const { key } = await createApiKey({ db: database.db, clock, projectId: project.id, scope: 'write' });
    keys.set(project.id, key);
    return { projectId: project.id, key };
  };
  const main = await makeProject('acme/docs');

  const e2e: E2E = {
    github,
    anthropic,
    database,
    tmp,
    ...main,
    scribe: undefined as unknown as ScribeProcess,
    async start(more = {}) {
      const env = standIns.env({ TMPDIR: tmp, ...extra, ...more });
      const scribe = await startScribeProcess({ env });
      processes.push(scribe);
      return scribe;
    },
    addProject: makeProject,
    async request(urlPath, init = {}) {
      const on = init.on ?? e2e.scribe;
      const res = await fetch(`${on.url}${urlPath}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          authorization: `Bearer ${init.key ?? e2e.key}`,
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return { status: res.status, body: await res.json() };
    },
    async createJob(body, options = {}) {
      const res = await e2e.request(`/v2/agent/${options.projectId ?? e2e.projectId}/job`, {
        body,
        key: options.key,
        on: options.on,
      });
      if (res.status !== 201) throw new Error(`create job: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as Job;
    },
    async job(id, projectId = e2e.projectId) {
      const res = await e2e.request(`/v2/agent/${projectId}/job/${id}`, { key: keys.get(projectId) });
      return res.body as Job;
    },
    async waitForJob(id, done, what, projectId, timeoutMs = 30_000) {
      let last: Job | undefined;
      try {
        return await waitFor(
          async () => {
            last = await e2e.job(id, projectId);
            return done(last) ? last : undefined;
          },
          what,
          timeoutMs,
          50,
        );
      } catch (err) {
        throw new Error(
          `${(err as Error).message}; job: ${JSON.stringify(last)}; events: ${JSON.stringify(await e2e.events(id, projectId))}`,
        );
      }
    },
    async events(id, projectId = e2e.projectId) {
      const res = await e2e.request(`/v2/agent/${projectId}/job/${id}/events`, { key: keys.get(projectId) });
      return res.body.events;
    },
    async close() {
      await Promise.all(processes.map((p) => p.kill()));
      await standIns.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
  e2e.scribe = await e2e.start();
  return e2e;
}

/** Workspaces (scribe-job-*) still present in the Scribe processes' TMPDIR. */
export function leftoverWorkspaces(e2e: E2E): string[] {
  return fs.readdirSync(e2e.tmp).filter((name) => name.startsWith('scribe-job-'));
}
