import { startScribe, type RunningScribe } from '../../../src/main.js';
import { createLogger } from '../../../src/logger.js';
import { reply, text } from '../../support/anthropic-server.js';
import { waitFor } from '../../support/wait-for.js';
import { forTask } from '../../support/e2e-harness.js';
import { examplePayload, startGitHubE2E, type GitHubE2E } from '../../support/github-harness.js';

describe('a scheduled automation on PostgreSQL with three processes', () => {
  let e2e: GitHubE2E;
  const others: RunningScribe[] = [];
  afterAll(async () => {
    for (const other of others) await other.stop();
    await e2e?.close();
  });

  it('runs a slot missed while every process was down once, at start, whichever processes look', async () => {
    e2e = await startGitHubE2E('postgresql', { AUTOMATION_SCHEDULE_POLL_SECONDS: '1' });
    const docs = 'acme/scheduled-docs';
    e2e.github.createRepository(docs, {
      'index.md': '# Docs\n',
      '.scribe/automations.yml':
        'automations:\n  - id: weekly\n    on: { schedule: "0 6 * * 1" }\n    prompt: Weekly link check.\n',
    });
    e2e.github.addInstallation(90, [docs]);
    const installed = examplePayload('installation', 'created');
    installed.installation.id = 90;
    installed.repositories = [{ id: 1, node_id: 'R', name: 'scheduled-docs', full_name: docs, private: true }];
    await e2e.send('installation', installed);
    const projectId = (await e2e.database.db.project.findUniqueOrThrow({ where: { repository: docs } })).id;
    const key = await e2e.keyFor(projectId);
    e2e.anthropic.script([reply([text('Title: Links\n\nAll links work.')])], forTask('Weekly link check.'));
    // read by the scheduler's next look, with no push to the docs repository
    await waitFor(
      () => e2e.database.db.automationConfig.findUnique({ where: { projectId } }).then((row) => row ?? undefined),
      'the config to be read',
      10_000,
      50,
    );
    expect((await e2e.api(`/v1/automations/${projectId}`, { key })).body.automations).toHaveLength(1);
    // The automation has been loaded for weeks: its latest slot (and several before it) passed with no process up.
    await e2e.database.db.automationConfig.update({
      where: { projectId },
      data: { firstSeen: JSON.stringify({ weekly: new Date(Date.now() - 30 * 86_400_000).toISOString() }) },
    });
    for (let i = 0; i < 2; i++) others.push(await startScribe({ ...e2e.config, port: 0 }, createLogger('silent')));

    const runs = await waitFor(
      async () => {
        const body = (await e2e.api(`/v1/automations/${projectId}/runs`, { key })).body;
        return body.runs.length && body.runs.every((r: { status: string }) => r.status !== 'running')
          ? body.runs
          : undefined;
      },
      'the scheduled run to finish',
      30_000,
      50,
    );
    // every process has looked at least twice more since
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const after = (await e2e.api(`/v1/automations/${projectId}/runs`, { key })).body;
    expect(after.total).toBe(1);
    expect(runs[0]).toMatchObject({
      automation: 'weekly',
      trigger: { kind: 'schedule' },
      status: 'no_changes',
      summary: expect.stringMatching(/^Scheduled run for \d{4}-\d\d-\d\dT06:00:00.000Z$/),
    });
    expect(await e2e.database.db.agentJob.count({ where: { projectId } })).toBe(1);
  });
});
