import { createTestDatabase, PROVIDERS } from '../support/databases.js';
import type { Database, Db } from '../../src/db/client.js';
import { addProject } from '../../src/projects/projects.js';
import { createJob } from '../../src/jobs/job-store.js';
import { fixCause, searchGapsOfJob } from '../../src/problems/fix-cause.js';
import type { DerivedProblem } from '../../src/problems/problem.js';

const problem = (id: string, kind: DerivedProblem['kind'], evidence: DerivedProblem['evidence']): DerivedProblem => ({
  id,
  kind,
  title: id,
  paths: [],
  readers: 5,
  previousReaders: 0,
  firstSeen: 0,
  lastSeen: 0,
  evidence,
});

describe.each(PROVIDERS)("a fix's cause and the search gaps it names on %s", (provider) => {
  let database: Database & { drop(): Promise<void> };
  let projectId: string;
  const clock = () => new Date();
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    projectId = (await addProject({ db: database.db, clock, repository: 'acme/gaps', ref: 'main' })).id;
  });
  afterAll(async () => {
    await database.drop();
  });

  const jobWith = (cause: unknown) =>
    createJob({
      db: database.db,
      clock,
      projectId,
      repository: 'acme/gaps',
      baseRef: 'main',
      branch: (id) => `scribe/${id}`,
      model: 'm',
      draft: false,
      prompt: 'p',
      cause,
    });

  it("keeps a search gap's query with it, and reads back the gaps alone", async () => {
    const cause = fixCause([
      problem('pb-gap', 'search-gap', { query: 'sso setup', searches: 9, clicks: 0 }),
      problem('pb-miss', 'missing-page', {
        url: '/old',
        requests: 3,
        humanReaders: 3,
        aiReaders: 0,
        statuses: [],
        agents: [],
        verifiedShare: null,
        candidates: [],
      }),
    ]);
    expect(cause.problems).toEqual([
      { id: 'pb-gap', kind: 'search-gap', title: 'pb-gap', query: 'sso setup' },
      { id: 'pb-miss', kind: 'missing-page', title: 'pb-miss' },
    ]);
    const job = await jobWith(cause);
    expect(await searchGapsOfJob(database.db, projectId, job.id)).toEqual([{ id: 'pb-gap', query: 'sso setup' }]);
  });

  it('names none for a job started otherwise, another project, a missing job or a cause it cannot read', async () => {
    expect(await searchGapsOfJob(database.db, projectId, (await jobWith(undefined)).id)).toEqual([]);
    const odd = await jobWith({
      problems: [{ id: 'x', kind: 'search-gap' }, { id: 3, kind: 'search-gap', query: 'q' }, null],
    });
    expect(await searchGapsOfJob(database.db, projectId, odd.id)).toEqual([]);
    expect(await searchGapsOfJob(database.db, projectId, (await jobWith({ problems: 'none' })).id)).toEqual([]);
    const gap = await jobWith({ problems: [{ id: 'g', kind: 'search-gap', title: 't', query: 'q' }] });
    expect(await searchGapsOfJob(database.db, 'prj_other', gap.id)).toEqual([]);
    expect(await searchGapsOfJob(database.db, projectId, 'job_missing')).toEqual([]);
    await database.db.agentJob.update({ where: { id: gap.id }, data: { cause: '{not json' } });
    expect(await searchGapsOfJob(database.db, projectId, gap.id)).toEqual([]);
    // a database that fails is no job without gaps: the failure reaches the caller (the sweep tries again)
    const down = {
      agentJob: { findUnique: async () => Promise.reject(new Error('connection lost')) },
    } as unknown as Db;
    await expect(searchGapsOfJob(down, projectId, gap.id)).rejects.toThrow('connection lost');
  });
});
