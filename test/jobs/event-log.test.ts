import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { createLogger } from '../../src/logger.js';
import { addProject } from '../../src/projects/projects.js';
import { createJob, getJob, listEvents } from '../../src/jobs/job-store.js';
import { JobEventLog } from '../../src/jobs/event-log.js';
import { modelTokens } from '../../src/metrics/metrics.js';

describe.each(PROVIDERS)('job event log on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('stores events in order behind the caller, sums turn usage on the job, and flush waits for a batch in flight', async () => {
    const clock = () => new Date();
    const project = await addProject({ db: database.db, clock, repository: 'acme/log', ref: 'main' });
    const job = await createJob({
      db: database.db,
      clock,
      projectId: project.id,
      repository: 'acme/log',
      baseRef: 'main',
      branch: () => 'scribe/x',
      model: 'm',
      draft: false,
      prompt: 'p',
    });
    const tokens = async (direction: string) =>
      (await modelTokens.get()).values.find(
        (v) => v.labels.model === `model-${provider}` && v.labels.direction === direction,
      )?.value ?? 0;
    const log = new JobEventLog({
      db: database.db,
      clock,
      jobId: job.id,
      model: `model-${provider}`,
      logger: createLogger('silent'),
    });
    await log.emit('stage', { stage: 'agent' });
    for (let turn = 1; turn <= 3; turn++) {
      await log.emit('turn', { turn, usage: { inputTokens: 100, outputTokens: 10 } });
      await log.emit('tool_call', { tool: 'str_replace_based_edit_tool', path: `p${turn}.md`, ok: true });
    }
    // Let the first batch start writing, then emit nothing more: flush must still wait for it.
    await new Promise((resolve) => setImmediate(resolve));
    await log.flush();
    const events = await listEvents({ db: database.db, jobId: job.id });
    expect(events.map((e) => e.type)).toEqual([
      'created',
      'stage',
      'turn',
      'tool_call',
      'turn',
      'tool_call',
      'turn',
      'tool_call',
    ]);
    expect(events.filter((e) => e.type === 'tool_call').map((e) => e.path)).toEqual(['p1.md', 'p2.md', 'p3.md']);
    expect(await getJob(database.db, project.id, job.id)).toMatchObject({ inputTokens: 300, outputTokens: 30 });
    expect([await tokens('input'), await tokens('output')]).toEqual([300, 30]);
    await log.emit('completed');
    await log.flush();
    expect((await listEvents({ db: database.db, jobId: job.id })).at(-1)?.type).toBe('completed');
  });
});
