import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { edit, reply, text } from '../support/anthropic-server.js';
import { forTask, leftoverWorkspaces, startE2E, type E2E } from '../support/e2e-harness.js';

const final = (title: string) => reply([text(`Title: ${title}\n\nDone.`)]);

// These outcomes do not depend on the database; one provider keeps the suite fast.
describe('agent job failures and refusals end to end', () => {
  let e2e: E2E;
  let outside: string;
  beforeAll(async () => {
    e2e = await startE2E('sqlite');
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-outside-'));
  });
  afterAll(async () => {
    await e2e?.close();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  // First in the file: the bot identity is cached once a job has looked it up.
  it('a failing bot-user lookup → failed at the github stage naming that lookup, not the repository access', async () => {
    e2e.github.failNext('GET', /^\/users\/scribe-docs%5Bbot%5D$|^\/users\/scribe-docs\[bot\]$/, 404, 'Not Found');
    const created = await e2e.createJob({ prompt: '[botuser] Fix typos' });
    const job = await e2e.waitForJob(created.id, (j) => j.status !== 'active', 'the job to fail');
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(
      /^Could not look up the App's bot user \(GET \/users\/scribe-docs\[bot\]\): GitHub answered 404/,
    );
    expect(job.error).not.toMatch(/cannot access|install the app/);
    expect((await e2e.events(created.id)).find((e) => e.type === 'failed')).toMatchObject({ stage: 'github' });
    // not cached: the next job looks the user up again and gets through
    e2e.anthropic.script([final('Nothing to change')], forTask('[botuser-again]'));
    const again = await e2e.createJob({ prompt: '[botuser-again] Fix typos' });
    expect((await e2e.waitForJob(again.id, (j) => j.status !== 'active', 'the second job to finish')).status).toBe(
      'completed',
    );
  });

  it('a repository the installation cannot access → failed at the github stage with what to do', async () => {
    const { projectId, key } = await e2e.addProject('acme/secret', { installed: false });
    const created = await e2e.createJob({ prompt: '[secret] Fix typos' }, { projectId, key });
    const job = await e2e.waitForJob(created.id, (j) => j.status !== 'active', 'the job to fail', projectId);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/cannot access acme\/secret: install the app/);
    expect((await e2e.events(created.id, projectId)).find((e) => e.type === 'failed')).toMatchObject({
      stage: 'github',
    });
    expect(e2e.anthropic.requests.some((r) => JSON.stringify(r.body).includes('[secret]'))).toBe(false);
  });

  it('a push rejected by branch protection → failed at the push stage, no pull request', async () => {
    const { projectId, key } = await e2e.addProject('acme/locked');
    e2e.github.protectBranches('acme/locked', 'scribe/*');
    e2e.anthropic.script(
      [reply([edit({ command: 'create', path: 'new.md', file_text: '# New\n' })]), final('Add a page')],
      forTask('[locked]'),
    );
    const created = await e2e.createJob({ prompt: '[locked] Add a page' }, { projectId, key });
    const job = await e2e.waitForJob(created.id, (j) => j.status !== 'active', 'the job to fail', projectId);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/rejected the push to scribe\/.* \(branch protection or a push rule\)/);
    expect(job.error).toMatch(/GH006: Protected branch update failed/);
    expect((await e2e.events(created.id, projectId)).find((e) => e.type === 'failed')).toMatchObject({ stage: 'push' });
    expect(e2e.github.branches('acme/locked')).toEqual(['main']);
    expect(e2e.github.pulls.some((p) => p.repository === 'acme/locked')).toBe(false);
    expect(leftoverWorkspaces(e2e)).toEqual([]);
  });

  it('a ref that does not exist → failed at the clone stage naming the branch', async () => {
    const created = await e2e.createJob({ prompt: '[noref] Fix typos', ref: 'release/9.9' });
    const job = await e2e.waitForJob(created.id, (j) => j.status !== 'active', 'the job to fail');
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/Branch release\/9\.9 was not found in acme\/docs/);
  });

  it('path escapes by the model (../, absolute, a symlink in the repository, .git) are refused; files outside stay untouched', async () => {
    const { projectId, key } = await e2e.addProject('acme/linked', { links: { 'shared-notes': outside } });
    fs.writeFileSync(path.join(outside, 'keep.md'), 'original\n');
    e2e.anthropic.script(
      [
        reply([
          edit({ command: 'create', path: '../escaped.md', file_text: 'x' }),
          edit({ command: 'create', path: path.join(outside, 'absolute.md'), file_text: 'x' }),
          edit({ command: 'create', path: 'shared-notes/through-link.md', file_text: 'x' }),
          edit({ command: 'str_replace', path: 'shared-notes/keep.md', old_str: 'original', new_str: 'changed' }),
          edit({ command: 'create', path: '.git/hooks/pre-commit', file_text: '#!/bin/sh\nexit 0\n' }),
        ]),
        final('Nothing possible'),
      ],
      forTask('[escape]'),
    );
    const created = await e2e.createJob({ prompt: '[escape] Write notes everywhere' }, { projectId, key });
    const job = await e2e.waitForJob(created.id, (j) => j.status !== 'active', 'the job to finish', projectId);
    expect(job).toMatchObject({ status: 'completed', prLink: null });
    const calls = (await e2e.events(created.id, projectId)).filter((e) => e.type === 'tool_call');
    expect(calls).toHaveLength(5);
    expect(calls.every((c) => c.ok === false)).toBe(true);
    expect(fs.readdirSync(outside)).toEqual(['keep.md']);
    expect(fs.readFileSync(path.join(outside, 'keep.md'), 'utf8')).toBe('original\n');
    expect(fs.existsSync(path.join(e2e.tmp, 'escaped.md'))).toBe(false);
    expect(e2e.github.branches('acme/linked')).toEqual(['main']);
  });

  it('limits exceeded → failed with the limit named and what to change (here SCRIBE_MAX_TURNS=1)', async () => {
    await e2e.scribe.stop();
    e2e.scribe = await e2e.start({ SCRIBE_MAX_TURNS: '1' });
    e2e.anthropic.script(
      [reply([edit({ command: 'view', path: 'index.mdx' })]), final('Never reached')],
      forTask('[limits]'),
    );
    const created = await e2e.createJob({ prompt: '[limits] Review the home page' });
    const job = await e2e.waitForJob(created.id, (j) => j.status !== 'active', 'the job to fail');
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/limit of 1 model turns/);
    expect((await e2e.events(created.id)).find((e) => e.type === 'failed')).toMatchObject({ stage: 'agent' });
    expect(job.usage).toEqual({ inputTokens: 100, outputTokens: 50 });
  });
});
