import { PROVIDERS } from '../support/databases.js';
import { useAutomations } from '../support/automations.js';
import { NotFound } from '../../src/errors.js';
import { listMessages } from '../../src/jobs/job-store.js';
import { findConfig } from '../../src/automations/config-store.js';
import type { Automation } from '../../src/automations/parse-config.js';
import { startManualRun } from '../../src/automations/manual-trigger.js';

const NIGHTLY: Automation = {
  id: 'nightly',
  on: { kind: 'schedule', cron: '0 3 * * *' },
  prompt: 'Tidy up.',
  draft: false,
};

describe.each(PROVIDERS)('startManualRun on %s', (provider) => {
  const bench = useAutomations(provider);

  it('starts a run whatever the automation is triggered by, each request a run of its own', async () => {
    const project = await bench.project();
    await bench.loadAutomations(project, [NIGHTLY]);
    const first = await startManualRun(bench.deps, { projectId: project.id, automationId: 'nightly' });
    const second = await startManualRun(bench.deps, { projectId: project.id, automationId: 'nightly' });
    expect(first).toMatchObject({
      automationId: 'nightly',
      trigger: 'manual',
      status: 'running',
      summary: 'Manual run at 2026-11-23T12:00:00.000Z',
      jobId: expect.stringMatching(/^job_/),
      seq: 1,
    });
    expect(second.id).not.toBe(first.id);
    expect(second.dedupeKey).not.toBe(first.dedupeKey);
    // the first run's job has not run yet: the second is a message on it
    expect(second).toMatchObject({ jobId: first.jobId, seq: 2 });
    expect(await listMessages(bench.deps.db, first.jobId!)).toHaveLength(2);
  });

  it('is NotFound for an automation the project has not loaded', async () => {
    const project = await bench.project();
    await bench.loadAutomations(project, [NIGHTLY]);
    const missing = startManualRun(bench.deps, { projectId: project.id, automationId: 'nope' });
    await expect(missing).rejects.toBeInstanceOf(NotFound);
    await expect(missing).rejects.toThrow('No automation "nope" is loaded for this project');
  });

  it('reads the config from GitHub first when the project was never read', async () => {
    const project = await bench.project({
      files: {
        'index.md': '# Docs\n',
        '.scribe/automations.yml':
          'automations:\n  - id: nightly\n    on: { schedule: "0 3 * * *" }\n    prompt: Tidy up.\n',
      },
    });
    const run = await startManualRun(bench.deps, { projectId: project.id, automationId: 'nightly' });
    expect(run).toMatchObject({ trigger: 'manual', jobId: expect.stringMatching(/^job_/) });
    expect((await findConfig(bench.deps.db, project.id))?.automations.map((a) => a.id)).toEqual(['nightly']);
  });
});
