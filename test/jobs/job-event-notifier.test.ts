import { createTestDatabase, PROVIDERS } from '../support/databases.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { createLogger } from '../../src/logger.js';
import { addProject } from '../../src/projects/projects.js';
import { appendEvent, createJob } from '../../src/jobs/job-store.js';
import { createJobEventNotifier, type JobEventNotifier } from '../../src/jobs/job-event-notifier.js';
import { waitFor } from '../support/wait-for.js';

describe.each(PROVIDERS)('job event notifier on %s', (provider) => {
  let database: Database & { drop(): Promise<void> };
  let other: Database;
  let notifier: JobEventNotifier;
  const clock = () => new Date();

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    // another connection writes the events, as another process would
    other = openDatabase(database.target);
    notifier = createJobEventNotifier({
      db: database.db,
      database: database.target,
      logger: createLogger('silent'),
      pollMs: 20,
    });
  });
  afterAll(async () => {
    await notifier.close();
    await other.close();
    await database.drop();
  });

  it('wakes the listeners of a job when any connection adds one of its events, and only them', async () => {
    const project = await addProject({ db: database.db, clock, repository: 'acme/notify', ref: 'main' });
    const newJob = () =>
      createJob({
        db: database.db,
        clock,
        projectId: project.id,
        repository: 'acme/notify',
        baseRef: 'main',
        branch: (id) => `scribe/${id}`,
        model: 'm',
        draft: false,
        prompt: 'p',
      });
    const [a, b] = [await newJob(), await newJob()];
    const woken = { a: 0, b: 0, late: 0 };
    const stopA = notifier.subscribe(a.id, () => woken.a++);
    notifier.subscribe(b.id, () => woken.b++);
    // once listening starts, every listener is woken to read what came before
    await waitFor(() => woken.a > 0 && woken.b > 0, 'the first wake');
    woken.a = woken.b = 0;
    await appendEvent({ db: other.db, clock, jobId: a.id, type: 'note' });
    await waitFor(() => woken.a > 0, "job a's listener");
    expect(woken.b).toBe(0);

    stopA();
    const before = woken.a;
    notifier.subscribe(a.id, () => woken.late++);
    await appendEvent({ db: other.db, clock, jobId: a.id, type: 'note' });
    await waitFor(() => woken.late > 0, 'the new listener');
    expect(woken.a).toBe(before);
    expect(woken.b).toBe(0);
  });
});
