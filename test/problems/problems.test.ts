import { createJobRequests, JobsNotConfigured } from '../../src/jobs/job-requests.js';
import { createProblems, type Problems } from '../../src/problems/problems.js';
import type { Project } from '../../src/projects/projects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { PROVIDERS } from '../support/databases.js';

/** A fix the job service refuses leaves its problems as they were, so a later fix (or an automation) can take them. */
describe.each(PROVIDERS)('a refused fix on %s', (provider) => {
  let app: TestApp;
  let project: Project;
  let problems: Problems;
  beforeAll(async () => {
    app = await startTestApp({ provider, routes: [], clock: () => new Date('2026-11-21T00:00:00Z') });
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    const { db, clock, config } = app.ctx;
    project = await app.project();
    const jobs = createJobRequests({
      db,
      clock,
      jobs: config.jobs,
      missing: ['set ANTHROPIC_API_KEY'],
      wake: () => {},
    });
    problems = createProblems({
      db,
      clock,
      signals: app.services.analytics.problemSignals(),
      jobs,
      pages: async () => [],
    });
  });

  it('gives the claimed problems back when the job cannot be started', async () => {
    const at = Date.UTC(2026, 10, 20);
    await app.services.analytics.readerSignals().submitSearches(project.id, [
      { query: 'sso', visitorId: 'a', timestamp: at },
      { query: 'sso', visitorId: 'b', timestamp: at },
    ]);
    const [gap] = (await problems.list(project, { limit: 10 })).problems;
    expect(gap).toMatchObject({ kind: 'search-gap', status: 'open' });
    await expect(problems.fix(project, { ids: [gap.id] })).rejects.toBeInstanceOf(JobsNotConfigured);
    expect((await problems.list(project, { limit: 10 })).problems[0]).toMatchObject({ status: 'open', jobId: null });
    expect(await app.ctx.db.problemState.count({ where: { projectId: project.id } })).toBe(0);
  });
});
