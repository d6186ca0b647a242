import { PROVIDERS, useTestDatabase } from '../../support/databases.js';
import { fixedClock } from '../../support/clock.js';
import { addProject } from '../../../src/projects/projects.js';
import { appendEvent, createJob, listEvents } from '../../../src/jobs/job-store.js';

const PAST_32_BITS = 2 ** 32;

describe.each(PROVIDERS)('64-bit event ids on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-23T12:00:00.000Z');

  /** Moves the id counter of `table` past 2^32, as two months of a busy site would. */
  async function countPast32Bits(table: 'AgentJobEvent' | 'AnalyticsEvent'): Promise<void> {
    if (provider === 'postgresql') {
      // setval fails on a 32-bit sequence, whatever the column
      await database.db.$executeRawUnsafe(`SELECT setval('"${table}_id_seq"', ${PAST_32_BITS})`);
    } else {
      // the table's row in sqlite_sequence appears with its first insert
      await database.db.$executeRawUnsafe(`DELETE FROM sqlite_sequence WHERE name = '${table}'`);
      await database.db.$executeRawUnsafe(
        `INSERT INTO sqlite_sequence (name, seq) VALUES ('${table}', ${PAST_32_BITS})`,
      );
    }
  }

  it('hands out job event ids past 2^32 and pages through them with the cursor', async () => {
    const project = await addProject({ db: database.db, clock, repository: 'acme/ids', ref: 'main' });
    const job = await createJob({
      db: database.db,
      clock,
      projectId: project.id,
      repository: 'acme/ids',
      baseRef: 'main',
      branch: (id) => `scribe/${id}`,
      model: 'm',
      draft: false,
      prompt: 'p',
    });
    await countPast32Bits('AgentJobEvent');
    await appendEvent({ db: database.db, clock, jobId: job.id, type: 'note', data: { n: 1 } });
    await appendEvent({ db: database.db, clock, jobId: job.id, type: 'note', data: { n: 2 } });
    const events = await listEvents({ db: database.db, jobId: job.id, afterId: 2 ** 31 });
    expect(events.map((e) => [e.id, e.n])).toEqual([
      [PAST_32_BITS + 1, 1],
      [PAST_32_BITS + 2, 2],
    ]);
    expect((await listEvents({ db: database.db, jobId: job.id, afterId: PAST_32_BITS + 1 })).map((e) => e.id)).toEqual([
      PAST_32_BITS + 2,
    ]);
  });

  it('stores page views with ids past 2^32', async () => {
    await countPast32Bits('AnalyticsEvent');
    await database.db.$executeRawUnsafe(
      `INSERT INTO "AnalyticsEvent" ("projectId", "ts", "pageId", "visitorId", "kind") VALUES ('prj', 1, 1, 1, 1)`,
    );
    const [row] = await database.db.$queryRawUnsafe<{ id: unknown }[]>(
      `SELECT "id" FROM "AnalyticsEvent" WHERE "projectId" = 'prj'`,
    );
    expect(Number(row.id)).toBe(PAST_32_BITS + 1);
  });
});
