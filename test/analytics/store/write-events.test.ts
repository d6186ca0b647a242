import { createHash } from 'node:crypto';
import { Dictionaries } from '../../../src/analytics/store/dictionaries.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { claimedTransaction, insertEvents, type NewEvent } from '../../../src/analytics/store/write-events.js';
import { PROVIDERS, useTestDatabase } from '../../support/databases.js';

const hash = (who: string) => createHash('sha256').update(who).digest('base64url').slice(0, 22);

const view = (who: string, key: string): NewEvent => ({
  ts: Date.UTC(2026, 10, 20, 10),
  path: '/docs/start',
  visitorHash: hash(who),
  kind: 1,
  agent: null,
  referrer: null,
  key,
});

describe.each(PROVIDERS)('ingest transactions on %s', (provider) => {
  const database = useTestDatabase(provider);
  let sql: Sql;
  beforeEach(() => {
    sql = openSql(database.target);
  });
  afterEach(() => sql.close());

  const storedVisitor = async (who: string) =>
    sql.query<{ id: unknown }>('SELECT "id" FROM "AnalyticsVisitor" WHERE "projectId" = ? AND "hash" = ?', [
      `prj_${provider}`,
      hash(who),
    ]);

  it('a write that fails rolls back its claims and visitor numbers, and the cache forgets them', async () => {
    const dictionaries = new Dictionaries();
    const projectId = `prj_${provider}`;
    const events = [view('rolled-back', 'r1')];
    await expect(
      claimedTransaction({ sql, dictionaries, projectId, events }, async (_tx, fresh, visitorIds) => {
        expect(fresh).toHaveLength(1);
        expect(visitorIds).toEqual([expect.any(Number)]);
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(await storedVisitor('rolled-back')).toEqual([]);
    // the same views again: the key was not kept, and the visitor is numbered anew, its row stored this time
    expect(await insertEvents({ sql, dictionaries, projectId, events })).toEqual(new Set());
    const [visitor] = await storedVisitor('rolled-back');
    expect(visitor).toBeDefined();
    const [event] = await sql.query<{ visitorId: unknown }>(
      'SELECT "visitorId" FROM "AnalyticsEvent" WHERE "projectId" = ?',
      [projectId],
    );
    expect(Number(event!.visitorId)).toBe(Number(visitor!.id));
    // and a retry of the stored batch is a duplicate, writing nothing
    expect(await insertEvents({ sql, dictionaries, projectId, events })).toEqual(new Set([0]));
  });

  it('numbers the visitors of a batch in its order: one id per hash however often it occurs, null for none, cached after', async () => {
    const dictionaries = new Dictionaries();
    const projectId = `prj_${provider}_order`;
    const [a, b] = [hash('a'), hash('b')];
    const lookups: string[][] = [];
    const counting = (tx: Sql): Sql => ({
      ...tx,
      dictionaryIds: (params) => {
        lookups.push(params.keys);
        return tx.dictionaryIds(params);
      },
    });
    const first = await sql.transaction((tx) => dictionaries.visitorIds(counting(tx), projectId, [a, null, b, a]));
    expect(first[1]).toBeNull();
    expect(first[0]).toBe(first[3]);
    expect(new Set(first).size).toBe(3);
    expect(lookups).toEqual([[a, b]]);
    const again = await sql.transaction((tx) => dictionaries.visitorIds(counting(tx), projectId, [b, a, hash('c')]));
    expect(again.slice(0, 2)).toEqual([first[2], first[0]]);
    expect(lookups).toEqual([[a, b], [hash('c')]]);
    const [stored] = await sql.query<{ id: unknown }>(
      'SELECT "id" FROM "AnalyticsVisitor" WHERE "projectId" = ? AND "hash" = ?',
      [projectId, hash('c')],
    );
    expect(Number(stored!.id)).toBe(again[2]);
  });
});
