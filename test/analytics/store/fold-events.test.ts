import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { foldEvents } from '../../../src/analytics/store/fold-events.js';
import { FOLDED, readMarks, writeMarks } from '../../../src/analytics/store/rollups/rollup-marks.js';
import { KIND } from '../../../src/analytics/store/day-sets.js';
import type { Rollup } from '../../../src/analytics/store/rollups/rollup.js';
import { DAY_MS } from '../../../src/calendar.js';
import { useTestDatabase } from '../../support/databases.js';

const START = Date.UTC(2026, 10, 2);

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** `work`'s result, or 'still waiting' if it has not settled within ten seconds (it waits on a lock). */
async function settledSoon<T>(work: Promise<T>): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<'still waiting'>((resolve) => {
    timer = setTimeout(() => resolve('still waiting'), 10_000);
  });
  try {
    return await Promise.race([work, waited]);
  } finally {
    clearTimeout(timer);
  }
}

const insertViews = (tx: Sql, projectId: string, visitors: number[]) =>
  tx.insertMany({
    table: 'AnalyticsEvent',
    columns: [
      ['projectId', 'text'],
      ['ts', 'bigint'],
      ['pageId', 'int'],
      ['visitorId', 'int'],
      ['kind', 'int'],
    ],
    rows: visitors.map((visitor, i) => [projectId, START + i * 1000, 1, visitor, KIND.human]),
  });

const foldedViews = async (sql: Sql, projectId: string) => {
  const [row] = await sql.query<{ views: unknown }>(
    'SELECT SUM("views") AS views FROM "AnalyticsDayViews" WHERE "projectId" = ? AND "day" = ?',
    [projectId, START / DAY_MS],
  );
  return Number(row?.views ?? 0);
};

/**
 * On PostgreSQL the fold holds the derived lock and ingestion the write lock, so neither waits for the other (on SQLite
 * one writer excludes every other, and one process's statements run one at a time anyway).
 */
describe('folding beside ingestion on postgresql', () => {
  const database = useTestDatabase('postgresql');

  it("folds the committed events while another replica's batch is being stored, and that batch after it commits", async () => {
    const projectId = 'prj_fold_beside_batch';
    const ingesting = openSql(database.target);
    const folding = openSql(database.target);
    const stored = gate();
    const commit = gate();
    try {
      await ingesting.transaction((tx) => insertViews(tx, projectId, [1, 2, 3]));
      const batch = ingesting.transaction(async (tx) => {
        await insertViews(tx, projectId, [4, 5]);
        stored.open();
        await commit.opened;
      });
      await stored.opened;
      const fold = foldEvents(folding);
      const folded = await settledSoon(fold);
      commit.open();
      await batch;
      await fold;
      expect(folded).toBe(3);
      expect(await foldedViews(folding, projectId)).toBe(3);
      // the watermark stops at the committed prefix: the batch's events, committed after, are folded next
      expect(await foldEvents(folding)).toBe(2);
      expect(await foldedViews(folding, projectId)).toBe(5);
      const [[top]] = await folding.rows('SELECT MAX("id") FROM "AnalyticsEvent"');
      expect((await readMarks(folding, [FOLDED])).get(FOLDED)).toBe(Number(top));
    } finally {
      commit.open();
      await ingesting.close();
      await folding.close();
    }
  });

  it('stores a batch in the same process while a fold is deriving, and the fold takes only what it read', async () => {
    const projectId = 'prj_batch_beside_fold';
    const sql = openSql(database.target);
    const deriving = gate();
    const finish = gate();
    // a rollup that holds the fold's transaction open in the middle of deriving its chunk
    const heldOpen: Rollup = {
      name: 'held open',
      tables: [],
      async add() {
        deriving.open();
        await finish.opened;
      },
    };
    try {
      await sql.transaction((tx) => insertViews(tx, projectId, [1, 2]));
      const fold = foldEvents(sql, { rollups: [heldOpen] });
      await deriving.opened;
      const stored = await settledSoon(
        sql.transaction((tx) => insertViews(tx, projectId, [3, 4, 5]).then(() => 'stored')),
      );
      finish.open();
      expect(stored).toBe('stored');
      expect(await fold).toBe(2);
      expect(await foldedViews(sql, projectId)).toBe(2);
      expect(await foldEvents(sql, { rollups: [] })).toBe(3);
      expect(await foldedViews(sql, projectId)).toBe(5);
    } finally {
      finish.open();
      await sql.close();
    }
  });

  it('refuses the watermark from a transaction without the derived lock, as a fold of an earlier release held, and rolls back what it derived', async () => {
    const projectId = 'prj_fold_of_earlier_release';
    const sql = openSql(database.target);
    try {
      const before = (await readMarks(sql, [FOLDED])).get(FOLDED);
      // what such a fold did: derive its chunk and advance the watermark, holding the write lock alone
      const derive = (tx: Sql) =>
        tx
          .run(
            'INSERT INTO "AnalyticsDayViews" ("projectId", "day", "pageId", "kind", "views") VALUES (?, ?, 1, 1, 7)',
            [projectId, START / DAY_MS],
          )
          .then(() => writeMarks(tx, [[FOLDED, 1_000_000]]));
      await expect(sql.transaction(derive)).rejects.toThrow(/derived lock/);
      expect(await foldedViews(sql, projectId)).toBe(0);
      expect((await readMarks(sql, [FOLDED])).get(FOLDED)).toBe(before);
      // under the derived lock, as this release's fold holds it
      await sql.transaction(derive, ['derived']);
      expect(await foldedViews(sql, projectId)).toBe(7);
      expect((await readMarks(sql, [FOLDED])).get(FOLDED)).toBe(1_000_000);
    } finally {
      await sql.close();
    }
  });
});
