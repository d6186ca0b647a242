import { PROVIDERS } from '../support/databases.js';
import { useAutomations } from '../support/automations.js';
import { listMessages } from '../../src/jobs/job-store.js';
import type { Automation } from '../../src/automations/parse-config.js';
import { startSlotRun } from '../../src/automations/on-schedule.js';

const WEEKLY: Automation = {
  id: 'weekly',
  on: { kind: 'schedule', cron: '0 6 * * 1' },
  prompt: 'Check the links.',
  draft: false,
};
const SLOT = new Date('2026-11-23T06:00:00.000Z');

describe.each(PROVIDERS)('startSlotRun on %s', (provider) => {
  const bench = useAutomations(provider);

  it('starts one run for a slot, carried out by a new job, however often the slot is run', async () => {
    const project = await bench.project();
    await bench.loadAutomations(project, [WEEKLY]);
    const due = { projectId: project.id, automationId: 'weekly', slot: SLOT };
    const run = await startSlotRun(bench.deps, due);
    expect(run).toMatchObject({
      trigger: 'schedule',
      status: 'running',
      dedupeKey: 'schedule:2026-11-23T06:00:00.000Z',
      summary: 'Scheduled run for 2026-11-23T06:00:00.000Z',
      jobId: expect.stringMatching(/^job_/),
      seq: 1,
    });
    expect((await listMessages(bench.deps.db, run!.jobId!)).map((m) => m.prompt)).toEqual(['Check the links.']);
    expect(await startSlotRun(bench.deps, due)).toBeNull();
    expect(await bench.deps.db.automationRun.count({ where: { projectId: project.id } })).toBe(1);
  });

  it('starts nothing for an automation no longer loaded, or a project disabled or gone', async () => {
    const unloaded = await bench.project();
    await bench.loadAutomations(unloaded, []);
    expect(await startSlotRun(bench.deps, { projectId: unloaded.id, automationId: 'weekly', slot: SLOT })).toBeNull();
    const disabled = await bench.project();
    await bench.loadAutomations(disabled, [WEEKLY]);
    await bench.deps.db.project.update({ where: { id: disabled.id }, data: { disabledAt: bench.clock() } });
    expect(await startSlotRun(bench.deps, { projectId: disabled.id, automationId: 'weekly', slot: SLOT })).toBeNull();
    expect(await startSlotRun(bench.deps, { projectId: 'prj_gone', automationId: 'weekly', slot: SLOT })).toBeNull();
    expect(await bench.deps.db.automationRun.count({ where: { projectId: { in: [unloaded.id, disabled.id] } } })).toBe(
      0,
    );
  });
});
