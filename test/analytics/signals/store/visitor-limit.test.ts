import { insertSearches, type NewSearch } from '../../../../src/analytics/signals/store/insert-searches.js';
import {
  admitNewRows,
  type NewRowKeys,
  type StoreOutcome,
} from '../../../../src/analytics/signals/store/visitor-limit.js';
import { openSql, type Sql } from '../../../../src/analytics/store/sql.js';
import { createTestDatabase, PROVIDERS } from '../../../support/databases.js';
import { rng } from '../../../support/rollup-fixtures.js';
import { refuseNewRow } from '../../../support/row-by-row-limit.js';

const pick = <T>(random: () => number, values: T[]): T => values[Math.floor(random() * values.length)];

/** A row of a hostile batch: keys, addresses and visitor ids drawn from small pools, so they repeat. */
function randomSearch(random: () => number, ts: number): NewSearch {
  const visitorIdHash = pick(random, ['v1', 'v2', 'v3', null]);
  return {
    ts,
    query: pick(random, ['alpha', 'beta']),
    clickedPath: random() < 0.3 ? '/page' : null,
    // the stored visitor hash is mostly the limit's, sometimes another (a browser's without a given id)
    visitorHash: random() < 0.8 ? visitorIdHash : pick(random, ['v1', 'v2', null]),
    limitKeys: { addressHash: pick(random, ['a1', 'a2', null]), visitorIdHash },
    key: random() < 0.7 ? pick(random, ['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9']) : null,
  };
}

/** What the batch checks (readAdmission with admitNewRows) replaced: each row checked with its own queries, then stored on its own. */
async function storeOneByOne(
  sql: Sql,
  params: { projectId: string; now: number; rows: NewSearch[]; limit: { since: number; max: number } },
): Promise<StoreOutcome[]> {
  const { projectId, now, limit } = params;
  return sql.transaction(async (tx) => {
    const outcomes: StoreOutcome[] = [];
    for (const s of params.rows) {
      const refused = await refuseNewRow(tx, { table: 'AnalyticsSearch', projectId, ...s, limit });
      if (refused) outcomes.push(refused);
      else {
        await tx.run(
          'INSERT INTO "AnalyticsSearch" ("projectId", "ts", "receivedAt", "query", "clickedPath", "visitorHash", "addressHash", "key") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          [projectId, s.ts, now, s.query, s.clickedPath, s.visitorHash, s.limitKeys.addressHash, s.key],
        );
        outcomes.push('stored');
      }
    }
    return outcomes;
  });
}

const storedRows = (sql: Sql, projectId: string) =>
  sql.rows(
    'SELECT "ts", "receivedAt", "query", "clickedPath", "visitorHash", "addressHash", "key" FROM "AnalyticsSearch" WHERE "projectId" = ? ORDER BY "id"',
    [projectId],
  );

describe.each(PROVIDERS)('searches stored a batch at a time on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: Sql;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    sql = openSql(database.target);
  });
  afterAll(async () => {
    await sql.close();
    await database.drop();
  });

  it('decide and store every row as the row-by-row checks did, over batches with repeated keys and limits', async () => {
    const random = rng(5);
    const max = 4;
    let now = 1_700_000_000_000;
    const outcomes: Record<string, StoreOutcome[]> = { batch: [], single: [] };
    for (let round = 0; round < 40; round++) {
      // rounds 10 minutes apart and a limit over 25 minutes: rows leave the limit's window as the rounds go on
      now += 600_000;
      const limit = { since: now - 1_500_000, max };
      const rows = Array.from({ length: 1 + Math.floor(random() * 12) }, () => randomSearch(random, now - 5_000));
      outcomes.batch.push(...(await insertSearches(sql, { projectId: 'batch', now, rows, limit })));
      outcomes.single.push(...(await storeOneByOne(sql, { projectId: 'single', now, rows, limit })));
    }
    expect(outcomes.batch).toEqual(outcomes.single);
    // the draw reaches every outcome, so the comparison covers each
    for (const outcome of ['stored', 'duplicate', 'rate limited'] as const)
      expect(outcomes.batch.filter((o) => o === outcome).length).toBeGreaterThan(5);
    expect(await storedRows(sql, 'batch')).toEqual(await storedRows(sql, 'single'));
  });

  it('store nothing for a batch refused whole, and count none of it', async () => {
    const now = 1_800_000_000_000;
    const limit = { since: now - 3_600_000, max: 2 };
    const row = (key: string): NewSearch => ({
      ts: now,
      query: 'gamma',
      clickedPath: null,
      visitorHash: 'v9',
      limitKeys: { addressHash: 'a9', visitorIdHash: 'v9' },
      key,
    });
    expect(await insertSearches(sql, { projectId: 'whole', now, rows: [row('x1'), row('x2')], limit })).toEqual([
      'stored',
      'stored',
    ]);
    expect(await insertSearches(sql, { projectId: 'whole', now, rows: [row('x1'), row('x3')], limit })).toEqual([
      'duplicate',
      'rate limited',
    ]);
    expect(await storedRows(sql, 'whole')).toHaveLength(2);
  });
});

describe('admitNewRows', () => {
  const row = (key: string | null, address: string | null, visitor: string | null): NewRowKeys => ({
    key,
    limitKeys: { addressHash: address, visitorIdHash: visitor },
    visitorHash: visitor,
  });
  const fresh = () => ({ stored: new Set<string>(), use: { addressHash: new Map(), visitorHash: new Map() } });

  it('counts each admitted row against its address and visitor, so the limit falls inside the batch', () => {
    const state = { ...fresh(), max: 2 };
    state.use.addressHash.set('a', 1);
    expect(
      admitNewRows([row(null, 'a', 'v'), row(null, 'b', 'v'), row(null, 'b', 'v'), row(null, 'b', 'w')], state),
    ).toEqual([undefined, undefined, 'rate limited', undefined]);
    expect(state.use.addressHash.get('a')).toBe(2);
    expect(state.use.visitorHash.get('v')).toBe(2);
  });

  it('calls a key stored before or admitted earlier a duplicate, but not one whose row was refused', () => {
    const state = { ...fresh(), max: 1 };
    state.stored.add('old');
    expect(
      admitNewRows(
        [row('old', 'a', null), row('k', 'a', null), row('k', 'b', null), row('k', 'c', null), row('j', 'a', null)],
        state,
      ),
    ).toEqual(['duplicate', undefined, 'duplicate', 'duplicate', 'rate limited']);
    const limited = { ...fresh(), max: 0 };
    expect(admitNewRows([row('k', 'a', null), row('k', null, null)], limited)).toEqual(['rate limited', undefined]);
  });

  it('never limits a row without limit keys', () => {
    const state = { ...fresh(), max: 0 };
    expect(admitNewRows([row(null, null, null), row('k', null, null)], state)).toEqual([undefined, undefined]);
  });
});
