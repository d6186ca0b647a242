import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';
import { claimRun, updateRun } from '../../src/automations/run-store.js';

describe.each(PROVIDERS)('the run store on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-23T12:00:00.000Z');
  let keys = 0;
  const claim = (automationId: string, runsPerDay: number, dedupeKey = `k${++keys}`) =>
    claimRun({
      db: database.db,
      database: database.target,
      runsPerDay,
      clock,
      run: { projectId: 'prj_1', automationId, dedupeKey, trigger: 'manual', summary: 'by hand' },
    });

  it('claims runs asked for at once under the daily cap: exactly as many start as it has room for', async () => {
    // 7 a day, 2 used (one more skipped earlier does not count): 5 left for the 10 asked at once
    for (let i = 0; i < 2; i++) await claim('docs', 7);
    const skippedBefore = await claim('docs', 7);
    await updateRun({ db: database.db, clock, id: skippedBefore!.id, data: { status: 'skipped', reason: 'refused' } });
    const claimed = await Promise.all(Array.from({ length: 10 }, () => claim('docs', 7)));
    expect(claimed.filter((r) => r?.status === 'running')).toHaveLength(5);
    expect(claimed.filter((r) => r?.status === 'skipped')).toEqual(
      Array.from({ length: 5 }, () =>
        expect.objectContaining({
          reason: 'over the daily cap of 7 runs for this automation (AUTOMATION_RUNS_PER_DAY)',
        }),
      ),
    );
    // the cap counts per automation: another one's room is untouched
    expect(await claim('other', 7)).toMatchObject({ status: 'running' });
  });

  it('gives a run key to one claim only; the cap has room again a day later', async () => {
    const claimed = await Promise.all(Array.from({ length: 3 }, () => claim('once', 1, 'push:abc')));
    expect(claimed.filter((r) => r !== null)).toEqual([expect.objectContaining({ status: 'running' })]);
    expect(await claim('once', 1)).toMatchObject({ status: 'skipped' });
    clock.advance(24 * 3_600_000 + 1);
    expect(await claim('once', 1)).toMatchObject({ status: 'running' });
  });
});
