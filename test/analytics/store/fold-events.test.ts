import { Analytics } from '../../../src/analytics/analytics.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { catchUpRollups, foldEvents } from '../../../src/analytics/store/fold-events.js';
import { derivedReady } from '../../../src/analytics/store/rollups/rollup-marks.js';
import { createLogger } from '../../../src/logger.js';
import { createTestDatabase, PROVIDERS } from '../../support/databases.js';
import { countingRollup, randomViews, rng, START, DAY } from '../../support/rollup-fixtures.js';

describe.each(PROVIDERS)('rollup watermarks and the background catch-up on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let analytics: Analytics;
  let sql: Sql;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    analytics = new Analytics({
      target: database.target,
      secret: 'rollup-marks-secret-rollup-marks-secret-00',
      config: { saltRotation: 'never', trustedProxyHeader: undefined, cacheMb: 64 },
      logger: createLogger('silent'),
      clock: () => new Date(START + 60 * DAY),
      autoFold: false,
    });
    sql = openSql(database.target);
  });
  afterAll(async () => {
    await analytics.close();
    await sql.close();
    await database.drop();
  });

  const eventCount = async () => {
    const [row] = await sql.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM "AnalyticsEvent"');
    return Number(row.n);
  };

  it('a rollup added after events were folded is left out of the fold, then caught up in chunks while ingest goes on', async () => {
    const counting = await countingRollup(sql, 'TestCountsLate');
    const random = rng(11);
    await analytics.ingest('prj_a', randomViews(random, 700, 0, 20));
    await analytics.ingest('prj_b', randomViews(random, 300, 0, 20));
    // the database as an upgrade finds it: everything folded before the rollup existed
    const stored = await eventCount();
    expect(await foldEvents(sql, { rollups: [] })).toBe(stored);
    await analytics.ingest('prj_a', randomViews(random, 200, 5, 10));
    // the fold goes on without the lagging rollup, which would miss the events before
    expect(await foldEvents(sql, { rollups: [counting.rollup] })).toBe((await eventCount()) - stored);
    expect(await counting.stored()).toEqual(new Map());
    expect(await derivedReady(sql, { projectId: 'prj_a', rollups: [counting.rollup.name] })).toBe(false);
    expect(await derivedReady(sql, { projectId: 'prj_a' })).toBe(true);

    let ingested = false;
    const read = await catchUpRollups(sql, {
      rollups: [counting.rollup],
      chunk: 150,
      onProgress: () => {
        // late events for past days, stored between two chunks: the fold adds them after the catch-up
        if (!ingested) void analytics.ingest('prj_b', randomViews(random, 50, 2, 3));
        ingested = true;
      },
    });
    // what was folded when each chunk began: the late events were stored after the first one
    expect(read).toBeGreaterThanOrEqual(stored);
    expect(read).toBeLessThanOrEqual(await eventCount());
    expect(await derivedReady(sql, { projectId: 'prj_a', rollups: [counting.rollup.name] })).toBe(true);
    await foldEvents(sql, { rollups: [counting.rollup] });
    expect(await counting.stored()).toEqual(await counting.recount());
    expect([...(await counting.stored('prj_b')).keys()].length).toBeGreaterThan(0);
  });

  it('a rollup once caught up is fed by every fold', async () => {
    const counting = await countingRollup(sql, 'TestCountsNew');
    await analytics.fold();
    await catchUpRollups(sql, { rollups: [counting.rollup] });
    await analytics.ingest('prj_c', randomViews(rng(3), 120, 0, 4));
    await foldEvents(sql, { rollups: [counting.rollup] });
    expect(await counting.recount('prj_c')).toEqual(await counting.stored('prj_c'));
    expect((await counting.stored('prj_c')).size).toBeGreaterThan(0);
  });

  it('the service catches up in the background and stops between chunks when closed', async () => {
    const counting = await countingRollup(sql, 'TestCountsService');
    let stops = 0;
    const read = await catchUpRollups(sql, {
      rollups: [counting.rollup],
      chunk: 100,
      stop: () => stops++ > 2,
    });
    // three chunks, then asked to stop: the mark stays where it was reached
    expect(read).toBe(300);
    expect(await eventCount()).toBeGreaterThan(300);
    expect(await derivedReady(sql, { projectId: 'prj_a', rollups: [counting.rollup.name] })).toBe(false);
    await catchUpRollups(sql, { rollups: [counting.rollup], chunk: 100 });
    expect(await counting.stored()).toEqual(await counting.recount());
  });
});
