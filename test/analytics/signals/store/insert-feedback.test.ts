import { recordFeedbackChange } from '../../../../src/analytics/signals/store/feedback-changes.js';
import {
  insertFeedback,
  type NewFeedback,
  type StoreResult,
} from '../../../../src/analytics/signals/store/insert-feedback.js';
import type { VisitorLimit } from '../../../../src/analytics/signals/store/visitor-limit.js';
import { openSql, type Sql } from '../../../../src/analytics/store/sql.js';
import { createTestDatabase, PROVIDERS } from '../../../support/databases.js';
import { rng } from '../../../support/rollup-fixtures.js';
import { refuseNewRow } from '../../../support/row-by-row-limit.js';

const pick = <T>(random: () => number, values: T[]): T => values[Math.floor(random() * values.length)];
const DAY = 86_400_000;

/** A row of a hostile batch: keys, addresses, visitors, pages and days from small pools, so they repeat. */
function randomFeedback(random: () => number, now: number): NewFeedback {
  const visitorIdHash = pick(random, ['v1', 'v2', 'v3', null]);
  const comment = random() < 0.5 ? pick(random, ['unclear', 'wrong example', 'thanks']) : null;
  const source = comment === null ? pick(random, ['thumbs_only', 'code_snippet'] as const) : 'contextual';
  return {
    ts: now - Math.floor(random() * 3) * DAY,
    path: pick(random, ['/a', '/b']),
    source,
    helpful: random() < 0.2 ? null : random() < 0.5,
    comment,
    contact: null,
    code: source === 'code_snippet' ? 'x = 1' : null,
    filename: null,
    lang: null,
    visitorHash: random() < 0.8 ? visitorIdHash : pick(random, ['v1', 'v2', null]),
    limitKeys: { addressHash: pick(random, ['a1', 'a2', null]), visitorIdHash },
    key: random() < 0.7 ? pick(random, ['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8']) : null,
  };
}

/** What the batch insert replaced: each row checked, stored or updated with its own statements. */
function storeOneByOne(
  sql: Sql,
  params: { projectId: string; now: number; rows: NewFeedback[]; limit: VisitorLimit; onKey: 'skip' | 'update' },
): Promise<StoreResult[]> {
  const { projectId, now, rows, limit, onKey } = params;
  return sql.transaction(async (tx) => {
    const results: StoreResult[] = [];
    for (const f of rows) {
      const helpful = f.helpful === null ? null : Number(f.helpful);
      if (f.key !== null && onKey === 'update') {
        const [existing] = await tx.query<{ id: unknown; comment: string | null }>(
          'SELECT "id", "comment" FROM "AnalyticsFeedback" WHERE "projectId" = ? AND "key" = ?',
          [projectId, f.key],
        );
        if (existing) {
          const id = Number(existing.id);
          await recordFeedbackChange(tx, { projectId, id });
          await tx.run(
            'UPDATE "AnalyticsFeedback" SET "helpful" = ?, "comment" = COALESCE(?, "comment"), "source" = ? WHERE "id" = ?',
            [helpful, f.comment, f.comment === null ? f.source : 'contextual', id],
          );
          results.push({ outcome: 'updated', id, newComment: f.comment !== null && f.comment !== existing.comment });
          continue;
        }
      }
      const refused = await refuseNewRow(tx, { table: 'AnalyticsFeedback', projectId, ...f, limit });
      if (refused) {
        results.push({ outcome: refused, id: null, newComment: false });
        continue;
      }
      const [inserted] = await tx.query<{ id: unknown }>(
        'INSERT INTO "AnalyticsFeedback" ("projectId", "ts", "receivedAt", "path", "source", "status", "helpful", "comment", "contact", "code", "filename", "lang", "visitorHash", "addressHash", "key") ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING "id"',
        [
          ...[projectId, f.ts, now, f.path, f.source, 'pending', helpful, f.comment, f.contact, f.code],
          ...[f.filename, f.lang, f.visitorHash, f.limitKeys.addressHash, f.key],
        ],
      );
      results.push({ outcome: 'stored', id: Number(inserted.id), newComment: f.comment !== null });
    }
    return results;
  });
}

/** A project's rows and recorded changes, with ids as ranks (the two projects' ids differ). */
async function stored(sql: Sql, projectId: string) {
  const rows = await sql.rows(
    'SELECT "id", "ts", "receivedAt", "path", "source", "status", "helpful", "comment", "code", "visitorHash", "addressHash", "key" FROM "AnalyticsFeedback" WHERE "projectId" = ? ORDER BY "id"',
    [projectId],
  );
  const rank = new Map(rows.map((r, i) => [Number(r[0]), i]));
  const changes = await sql.rows(
    'SELECT "feedbackId", "status", "source", "helpful", "comment" FROM "AnalyticsFeedbackChange" ORDER BY "id"',
  );
  return {
    rows: rows.map(([, ...rest]) => rest.map((v) => (typeof v === 'bigint' ? Number(v) : v))),
    rank,
    changes: changes.flatMap(([id, ...rest]) => (rank.has(Number(id)) ? [[rank.get(Number(id)), ...rest]] : [])),
  };
}

describe.each(PROVIDERS)('feedback stored a batch at a time on %s', (provider) => {
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

  it.each(['update', 'skip'] as const)(
    'decides, stores and updates every row as the row-by-row statements did (onKey %s)',
    async (onKey) => {
      const random = rng(onKey === 'update' ? 11 : 12);
      let now = 1_700_000_000_000;
      const results: Record<string, StoreResult[]> = { batch: [], single: [] };
      const [batch, single] = [`batch-${onKey}`, `single-${onKey}`];
      for (let round = 0; round < 40; round++) {
        // rounds 10 minutes apart and a limit over 25 minutes: rows leave the limit's window as the rounds go on
        now += 600_000;
        const limit = { since: now - 1_500_000, max: 4 };
        const rows = Array.from({ length: 1 + Math.floor(random() * 12) }, () => randomFeedback(random, now));
        results.batch.push(...(await insertFeedback(sql, { projectId: batch, now, rows, limit, onKey })));
        results.single.push(...(await storeOneByOne(sql, { projectId: single, now, rows, limit, onKey })));
      }
      const [ours, theirs] = [await stored(sql, batch), await stored(sql, single)];
      const ranked = (list: StoreResult[], rank: Map<number, number>) =>
        list.map((r) => ({ ...r, id: r.id === null ? null : rank.get(r.id) }));
      // every returned id is the row stored or updated for that item (as a rank among the project's rows)
      expect(ranked(results.batch, ours.rank)).toEqual(ranked(results.single, theirs.rank));
      expect(ours.rows).toEqual(theirs.rows);
      expect(ours.changes).toEqual(theirs.changes);
      // the draw reaches every outcome the mode has, so the comparison covers each
      const outcomes =
        onKey === 'update'
          ? (['stored', 'updated', 'rate limited'] as const)
          : (['stored', 'duplicate', 'rate limited'] as const);
      for (const outcome of outcomes)
        expect(results.batch.filter((r) => r.outcome === outcome).length).toBeGreaterThan(5);
      // and an update of a row stored earlier in the same batch, and of a comment it brought
      expect(ours.changes.length).toBeGreaterThan(onKey === 'update' ? 5 : -1);
    },
  );

  it('updates a row stored earlier in the same batch, and returns each item its own row', async () => {
    const now = 1_800_000_000_000;
    const limit = { since: now - 3_600_000, max: 20 };
    const row = (key: string | null, comment: string | null, helpful: boolean | null): NewFeedback => ({
      ...{ ts: now, path: '/c', source: comment === null ? 'thumbs_only' : 'contextual', helpful, comment },
      ...{ contact: null, code: null, filename: null, lang: null, visitorHash: 'v9', key },
      limitKeys: { addressHash: 'a9', visitorIdHash: null },
    });
    const results = await insertFeedback(sql, {
      projectId: 'same-batch',
      now,
      rows: [row('w1', null, true), row(null, 'first', null), row('w1', 'why', false), row('w2', null, true)],
      limit,
      onKey: 'update',
    });
    expect(results.map((r) => [r.outcome, r.newComment])).toEqual([
      ['stored', false],
      ['stored', true],
      ['updated', true],
      ['stored', false],
    ]);
    expect(results[2].id).toBe(results[0].id);
    const byId = new Map(
      (
        await sql.rows('SELECT "id", "key", "comment", "helpful" FROM "AnalyticsFeedback" WHERE "projectId" = ?', [
          'same-batch',
        ])
      ).map(([id, ...rest]) => [Number(id), rest.map((v) => (typeof v === 'bigint' ? Number(v) : v))]),
    );
    expect(byId.get(results[0].id!)).toEqual(['w1', 'why', 0]);
    expect(byId.get(results[1].id!)).toEqual([null, 'first', null]);
    expect(byId.get(results[3].id!)).toEqual(['w2', null, 1]);
  });
});
