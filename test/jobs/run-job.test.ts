import fs from 'node:fs';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { createTestDatabase } from '../support/databases.js';
import { startGitHubHost, type GitHubHost } from '../support/github-host.js';
import type { Database } from '../../src/db/client.js';
import { hostGitHubApp } from '../support/host-github-app.js';
import { addProject, type Project } from '../../src/projects/projects.js';
import { createJob } from '../../src/jobs/job-store.js';
import { createJobRunner } from '../../src/jobs/run-job.js';
import type { JobRunHooks } from '../../src/jobs/run-hooks.js';
import type { JobRunnerDeps } from '../../src/jobs/run-types.js';
import type { AgentRunParams } from '../../src/agent/types.js';

/** A runner against the local GitHub host whose agent is `runAgent`, asking `hooks`. */
function runnerOn(params: {
  host: GitHubHost;
  database: Database;
  runAgent: NonNullable<JobRunnerDeps['runAgent']>;
  hooks?: Partial<JobRunHooks>;
}) {
  const { config, github } = hostGitHubApp(params.host, { ANTHROPIC_API_KEY: 'k' });
  return createJobRunner({
    db: params.database.db,
    github,
    anthropic: new Anthropic({ apiKey: 'k' }),
    jobs: config.jobs,
    runAgent: params.runAgent,
    hooks: params.hooks,
  });
}

/** A new job of the project, on a branch named after `name`. */
function jobOf(database: Database, project: Pick<Project, 'id' | 'repository'>, name: string, prompt: string) {
  return createJob({
    db: database.db,
    clock: () => new Date(),
    projectId: project.id,
    repository: project.repository,
    baseRef: 'main',
    branch: (id) => `scribe/${id.slice(4, 12)}-${name}`,
    model: 'm',
    draft: false,
    prompt,
  });
}

describe('a run stopped after the agent finished', () => {
  let host: GitHubHost;
  let database: Database & { drop(): Promise<void> };
  beforeAll(async () => {
    host = await startGitHubHost();
    host.addInstallation(8, ['acme/stop']);
    host.createRepository('acme/stop', { 'index.md': '# Home\n' });
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database.drop();
    await host.close();
  });

  /** A runner whose agent edits index.md, then has the run's signal aborted with `reason` before returning. */
  async function runStoppedWith(reason: string) {
    const clock = () => new Date();
    const project =
      (await database.db.project.findUnique({ where: { repository: 'acme/stop' } })) ??
      (await addProject({ db: database.db, clock, repository: 'acme/stop', ref: 'main', installationId: 8 }));
    const job = await jobOf(database, project, reason, 'Welcome people');
    const controller = new AbortController();
    const runAgent = async (params: AgentRunParams) => {
      fs.writeFileSync(path.join(params.workspaceDir, 'index.md'), '# Home\n\nWelcome.\n');
      controller.abort(reason);
      return {
        title: 'Welcome',
        summary: 'Added a welcome line.',
        usage: { inputTokens: 1, outputTokens: 1 },
        turns: 1,
      };
    };
    const runner = runnerOn({ host, database, runAgent });
    const outcome = runner({ job, signal: controller.signal, emit: async () => undefined });
    return { job, outcome };
  }

  it('finishes commit, push and pull request when the process is shutting down, so nothing is done twice', async () => {
    const { job, outcome } = await runStoppedWith('shutdown');
    await expect(outcome).resolves.toMatchObject({ prLink: expect.stringContaining('/acme/stop/pull/') });
    expect(host.readFile('acme/stop', job.branch, 'index.md')).toBe('# Home\n\nWelcome.\n');
  });

  it('pushes nothing when the job was archived meanwhile', async () => {
    const { job, outcome } = await runStoppedWith('archived');
    await expect(outcome).rejects.toThrow('The run was stopped');
    expect(host.branches('acme/stop')).not.toContain(job.branch);
  });
});

describe("a run asks the runner's hooks", () => {
  let host: GitHubHost;
  let database: Database & { drop(): Promise<void> };
  beforeAll(async () => {
    host = await startGitHubHost();
    host.addInstallation(9, ['acme/hooks', 'acme/hooks-src']);
    host.createRepository('acme/hooks', { 'index.md': '# Home\n' });
    host.createRepository('acme/hooks-src', { 'src/cli.ts': 'export const flags = [];\n' });
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database.drop();
    await host.close();
  });

  it('gives the agent the message context and the source, and the pull request the notes instead of the prompt', async () => {
    const clock = () => new Date();
    const project = await addProject({
      db: database.db,
      clock,
      repository: 'acme/hooks',
      ref: 'main',
      installationId: 9,
    });
    const job = await jobOf(database, project, 'hooks', 'Document the flags');
    const sha = host.log('acme/hooks-src', 'main')[0].sha;
    const asked: string[] = [];
    let seen: { context: string; source: string | undefined; flags: string | undefined } | undefined;
    const runAgent = async (params: AgentRunParams) => {
      seen = {
        context: params.context ?? '',
        source: params.source?.label,
        flags: params.source && fs.readFileSync(path.join(params.source.dir, 'src/cli.ts'), 'utf8'),
      };
      fs.writeFileSync(path.join(params.workspaceDir, 'index.md'), '# Home\n\nNo flags yet.\n');
      return {
        title: 'Flags',
        summary: 'Said there are no flags.',
        usage: { inputTokens: 1, outputTokens: 1 },
        turns: 1,
      };
    };
    const runner = runnerOn({
      host,
      database,
      runAgent,
      hooks: {
        async messageContext(_job, seq) {
          asked.push(`messageContext ${seq}`);
          return 'Start at the flags table.';
        },
        async sourceFor() {
          asked.push('sourceFor');
          return { repository: 'acme/hooks-src', sha };
        },
        async pullRequestNotes() {
          asked.push('pullRequestNotes');
          return '### Covered\n\n- acme/hooks-src: flags';
        },
      },
    });
    const outcome = await runner({ job, signal: new AbortController().signal, emit: async () => undefined });
    expect(asked).toEqual(['sourceFor', 'messageContext 1', 'pullRequestNotes']);
    expect(seen).toEqual({
      context: expect.stringContaining('Start at the flags table.'),
      source: `acme/hooks-src at ${sha.slice(0, 7)}`,
      flags: 'export const flags = [];\n',
    });
    const pr = host.pulls.find((p) => p.repository === 'acme/hooks' && p.number === outcome.prNumber)!;
    expect(pr.body).toContain('### Covered\n\n- acme/hooks-src: flags');
    expect(pr.body).not.toContain('### Prompt');
  });
});
