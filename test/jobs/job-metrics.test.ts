import { registerJobMetrics } from '../../src/jobs/job-metrics.js';
import { archiveJob, createJob } from '../../src/jobs/job-store.js';
import { renderMetrics } from '../../src/metrics/metrics.js';
import { addProject } from '../../src/projects/projects.js';
import { createTestDatabase, PROVIDERS } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';

describe.each(PROVIDERS)('job gauges on %s', (provider) => {
  it('report jobs by status and the waiting queue from the database at scrape time', async () => {
    const database = await createTestDatabase(provider);
    const clock = fixedClock('2026-11-21T10:00:00.000Z');
    const stop = registerJobMetrics({ db: database.db, clock });
    try {
      const project = await addProject({ db: database.db, clock, repository: 'acme/metrics', ref: 'main' });
      const make = (prompt: string) =>
        createJob({
          db: database.db,
          clock,
          projectId: project.id,
          repository: project.repository,
          baseRef: 'main',
          branch: (id) => `scribe/${id}`,
          model: 'm',
          draft: false,
          prompt,
        });
      const [a] = [await make('one'), await make('two'), await make('three')];
      await archiveJob({ db: database.db, clock, projectId: project.id, jobId: a.id });
      // a lease held until after "now": that job is running, not waiting
      const held = await make('four');
      await database.db.agentJob.update({
        where: { id: held.id },
        data: { leaseOwner: 'w1', leaseExpiresAt: new Date('2026-11-21T10:05:00.000Z') },
      });

      const { body } = await renderMetrics();
      expect(body).toMatch(/^scribe_jobs\{status="active"\} 3$/m);
      expect(body).toMatch(/^scribe_jobs\{status="archived"\} 1$/m);
      expect(body).toMatch(/^scribe_jobs\{status="completed"\} 0$/m);
      expect(body).toMatch(/^scribe_worker_queue_depth 2$/m);
    } finally {
      stop();
      await database.drop();
    }
  });
});
