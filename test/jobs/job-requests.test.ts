import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { loadConfig, type JobsConfig } from '../../src/config.js';
import { addProject, type Project } from '../../src/projects/projects.js';
import { listEvents, listMessages, type JobRecord } from '../../src/jobs/job-store.js';
import { createJobRequests, JobsNotConfigured, MAX_PROMPT_LENGTH } from '../../src/jobs/job-requests.js';
import { Conflict, Invalid, RateLimited } from '../../src/errors.js';

describe.each(PROVIDERS)('job requests on %s', (provider) => {
  const database = useTestDatabase(provider);
  let project: Project;
  const clock = () => new Date();
  const jobsConfig = (overrides: Partial<JobsConfig> = {}): JobsConfig => ({ ...loadConfig({}).jobs, ...overrides });

  beforeEach(async () => {
    project = await addProject({
      db: database.db,
      clock,
      repository: `acme/docs-${Math.random().toString(36).slice(2)}`,
      ref: 'main',
    });
  });

  function requests(options: { missing?: string[]; jobs?: Partial<JobsConfig> } = {}) {
    const log: string[] = [];
    const archived: JobRecord[] = [];
    const service = createJobRequests({
      db: database.db,
      clock,
      jobs: jobsConfig(options.jobs),
      missing: options.missing ?? [],
      wake: () => log.push('wake'),
      onArchived: [(job) => archived.push(job)],
    });
    return { service, log, archived };
  }

  it('refuses every request while jobs are not configured, saying what is missing, and queues nothing', async () => {
    const { service, log } = requests({ missing: ['set ANTHROPIC_API_KEY for the model'] });
    const refused = service.create({ project, prompt: 'Fix it', branchFrom: 'Fix it' });
    await expect(refused).rejects.toBeInstanceOf(JobsNotConfigured);
    await expect(refused).rejects.toMatchObject({
      missing: ['set ANTHROPIC_API_KEY for the model'],
      message: 'Agent jobs are not configured on this server: set ANTHROPIC_API_KEY for the model',
    });
    expect(await database.db.agentJob.count({ where: { projectId: project.id } })).toBe(0);
    expect(log).toEqual([]);
  });

  it('stores a job with the default model, runs beforeWake before waking the worker, and caps the prompt', async () => {
    const { service, log } = requests({ jobs: { models: ['m1', 'm2'] } });
    const job = await service.create({
      project,
      prompt: 'x'.repeat(MAX_PROMPT_LENGTH + 10),
      branchFrom: 'Fix the intro',
      beforeWake: async (created) => void log.push(`before ${created.id}`),
    });
    expect(job).toMatchObject({
      status: 'active',
      model: 'm1',
      baseRef: 'main',
      repository: project.repository,
      draft: false,
    });
    expect(job.branch).toMatch(/^scribe\/.*fix-the-intro/);
    expect(log).toEqual([`before ${job.id}`, 'wake']);
    expect((await listMessages(database.db, job.id))[0].prompt).toHaveLength(MAX_PROMPT_LENGTH);
    await expect(
      service.create({ project, prompt: 'Fix it', branchFrom: 'Fix it', model: 'other' }),
    ).rejects.toBeInstanceOf(Invalid);
  });

  it('counts jobs and follow-ups against the rate limit, and refuses a follow-up on an archived job before counting it', async () => {
    const { service, archived } = requests({ jobs: { ratePerHour: 2 } });
    const job = await service.create({ project, prompt: 'Fix it', branchFrom: 'Fix it' });
    await service.archive({ projectId: project.id, jobId: job.id });
    expect(archived.map((j) => [j.id, j.status])).toEqual([[job.id, 'archived']]);
    await expect(service.followUp({ projectId: project.id, jobId: job.id, prompt: 'And more' })).rejects.toBeInstanceOf(
      Conflict,
    );
    const second = await service.create({ project, prompt: 'Fix it again', branchFrom: 'Fix it again' });
    await expect(
      service.followUp({ projectId: project.id, jobId: second.id, prompt: 'And more' }),
    ).rejects.toBeInstanceOf(RateLimited);
  });

  it('gives each follow-up its own seq, even when two say the same thing', async () => {
    const { service, log } = requests();
    const job = await service.create({ project, prompt: 'Fix it', branchFrom: 'Fix it' });
    const seen: number[] = [];
    const first = await service.followUp({
      projectId: project.id,
      jobId: job.id,
      prompt: 'Again',
      beforeWake: async (_job, seq) => void seen.push(seq),
    });
    const second = await service.followUp({
      projectId: project.id,
      jobId: job.id,
      prompt: 'Again',
      beforeWake: async (_job, seq) => void seen.push(seq),
    });
    expect([first.seq, second.seq]).toEqual([2, 3]);
    expect(seen).toEqual([2, 3]);
    expect(log).toEqual(['wake', 'wake', 'wake']);
    expect(
      (await listEvents({ db: database.db, jobId: job.id })).filter((e) => e.type === 'message').map((e) => e.seq),
    ).toEqual([2, 3]);
  });

  it('gives follow-ups sent at once a seq each, one after another, none refused', async () => {
    const { service } = requests();
    const job = await service.create({ project, prompt: 'Fix it', branchFrom: 'Fix it' });
    const added = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        service.followUp({ projectId: project.id, jobId: job.id, prompt: `More ${i}` }),
      ),
    );
    const expected = Array.from({ length: 12 }, (_, i) => i + 2);
    expect(added.map((a) => a.seq).sort((a, b) => a - b)).toEqual(expected);
    expect((await listMessages(database.db, job.id)).map((m) => m.seq)).toEqual([1, ...expected]);
  });

  it('returns the job a request key already made, running beforeWake again, without a second job or rate-limit charge', async () => {
    const { service, log } = requests({ jobs: { ratePerHour: 2 } });
    const ask = (tag: string) =>
      service.create({
        project,
        prompt: 'Fix it',
        branchFrom: 'Fix it',
        requestKey: 'github issue comment acme/docs 7',
        beforeWake: async (created) => void log.push(`${tag} ${created.id}`),
      });
    // the first asking stores the job and then dies before recording where it came from
    const first = await ask('first');
    const again = await ask('retry');
    expect(again.id).toBe(first.id);
    expect(log).toEqual([`first ${first.id}`, 'wake', `retry ${first.id}`, 'wake']);
    expect(await database.db.agentJob.count({ where: { projectId: project.id } })).toBe(1);
    // the retry was not charged: one more job still fits in the hourly limit of 2
    const other = await service.create({ project, prompt: 'Other', branchFrom: 'Other', requestKey: 'another' });
    expect(other.id).not.toBe(first.id);
    await expect(service.create({ project, prompt: 'Third', branchFrom: 'Third' })).rejects.toBeInstanceOf(RateLimited);
  });

  it('makes one job of one request key asked for at once', async () => {
    const { service } = requests();
    const jobs = await Promise.all(
      Array.from({ length: 6 }, () =>
        service.create({ project, prompt: 'Fix it', branchFrom: 'Fix it', requestKey: 'automation run r1' }),
      ),
    );
    expect(new Set(jobs.map((j) => j.id)).size).toBe(1);
    expect(await database.db.agentJob.count({ where: { projectId: project.id } })).toBe(1);
  });

  it('adds one message per request key: a retried follow-up returns the seq the first one got, even after the job was archived', async () => {
    const { service } = requests();
    const job = await service.create({ project, prompt: 'Fix it', branchFrom: 'Fix it' });
    const follow = () =>
      service.followUp({ projectId: project.id, jobId: job.id, prompt: 'And more', requestKey: 'comment 9' });
    const [a, b] = await Promise.all([follow(), follow()]);
    expect([a.seq, b.seq]).toEqual([2, 2]);
    await service.archive({ projectId: project.id, jobId: job.id });
    expect((await follow()).seq).toBe(2);
    expect((await listMessages(database.db, job.id)).map((m) => m.seq)).toEqual([1, 2]);
    // keys belong to a project: the same words on another project's request are another request
    const elsewhere = await addProject({ db: database.db, clock, repository: `acme/other-${Date.now()}`, ref: 'main' });
    const own = await service.create({ project: elsewhere, prompt: 'Fix', branchFrom: 'Fix', requestKey: 'comment 9' });
    expect(own.projectId).toBe(elsewhere.id);
  });
});
