import fs from 'node:fs';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { createTestDatabase } from '../support/databases.js';
import { startGitHubHost, type GitHubHost } from '../support/github-host.js';
import type { Database } from '../../src/db/client.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { addProject } from '../../src/projects/projects.js';
import { createProbot } from '../../src/github/create-probot.js';
import { createGitHubApp } from '../../src/github/github-app.js';
import { createJob } from '../../src/jobs/job-store.js';
import { createJobRunner } from '../../src/jobs/run-job.js';
import type { AgentRunParams } from '../../src/agent/types.js';

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
    const config = loadConfig({ APP_ID: String(host.app.id), PRIVATE_KEY: host.app.privateKey, GHE_HOST: host.host, GHE_PROTOCOL: 'http', ANTHROPIC_API_KEY: 'k', SCRIBE_GITHUB_THROTTLE: 'false' });
    const project = (await database.db.project.findUnique({ where: { repository: 'acme/stop' } })) ?? (await addProject({ db: database.db, clock, repository: 'acme/stop', ref: 'main', installationId: 8 }));
    const job = await createJob({ db: database.db, clock, projectId: project.id, repository: 'acme/stop', baseRef: 'main', branch: (id) => `scribe/${id.slice(4, 12)}-${reason}`, model: 'm', draft: false, prompt: 'Welcome people' });
    const controller = new AbortController();
    const runAgent = async (params: AgentRunParams) => {
      fs.writeFileSync(path.join(params.workspaceDir, 'index.md'), '# Home\n\nWelcome.\n');
      controller.abort(reason);
      return { title: 'Welcome', summary: 'Added a welcome line.', usage: { inputTokens: 1, outputTokens: 1 }, turns: 1 };
    };
    const runner = createJobRunner({
      db: database.db,
      github: createGitHubApp({ probot: createProbot({ config, logger: createLogger('silent') })!, github: config.github }),
      anthropic: new Anthropic({ apiKey: 'k' }),
      jobs: config.jobs,
      runAgent,
    });
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
