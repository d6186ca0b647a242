import { setTimeout as sleep } from 'node:timers/promises';
import type { Analytics } from '../../../src/analytics/analytics.js';
import { naiveVisitors } from '../../support/naive-visitors.js';
import { rebuildDerived } from '../../../src/analytics/store/rebuild-derived.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import type { TimeRange } from '../../../src/calendar.js';
import { createTestDatabase, PROVIDERS } from '../../support/databases.js';
import { naiveAgents, readRawEvents } from '../../support/naive-ai-reports.js';
import { DAY, randomViews, reportAnalytics, rng, START } from '../../support/rollup-fixtures.js';

/** JSON with object keys sorted: two answers compare equal whatever order their fields were built in. */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v,
  );

/** partial days at both ends, whole days between: every part of a range's answer is read */
const RANGES: TimeRange[] = [
  { from: START + 2 * DAY + 5 * 3_600_000, to: START + 11 * DAY + 9 * 3_600_000 },
  { from: START + 4 * DAY, to: START + 9 * DAY },
];
const PAGE = { limit: 1000, offset: 0 };

/**
 * The two reports found torn, each over each range, as the service answers them (each answer is one snapshot of its
 * own) and as the obvious recount of the stored events gives them.
 */
async function served(analytics: Analytics, projectId: string): Promise<string[]> {
  const out: Promise<string>[] = [];
  for (const range of RANGES) {
    out.push(analytics.visitors(projectId, range, PAGE).then((v) => canonical({ totals: v.totals, rows: v.rows })));
    out.push(analytics.aiAgents(projectId, range).then(canonical));
  }
  return Promise.all(out);
}

async function recounted(sql: Sql, projectId: string): Promise<string[]> {
  const events = await readRawEvents(sql, projectId);
  const out: string[] = [];
  for (const range of RANGES) {
    const naive = await naiveVisitors({ sql, projectId, range, ...PAGE });
    out.push(canonical({ totals: naive.totals, rows: naive.visitors }), canonical(naiveAgents(events, range)));
  }
  return out;
}

describe.each(PROVIDERS)('reports while the data changes on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  /** the service answering reports, and another one (its own connection) that ingests, folds and rebuilds */
  let reader: Analytics;
  let writer: Analytics;
  let sql: Sql;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    reader = reportAnalytics(database.target);
    writer = reportAnalytics(database.target);
    sql = openSql(database.target);
  });
  afterAll(async () => {
    await reader.close();
    await writer.close();
    await sql.close();
    await database.drop();
  });

  it('answer each for one committed state while another connection ingests and folds', async () => {
    const projectId = 'prj_live';
    await writer.ingest(projectId, randomViews(rng(1), 500, 0, 14));
    await writer.fold();
    // every state a reader may see, per report and range: after each committed batch (the writer's only writes)
    const states: Set<string>[] = (await recounted(sql, projectId)).map((answer) => new Set([answer]));
    let writing = true;
    const writes = (async () => {
      const random = rng(2);
      try {
        for (let batch = 0; batch < 16; batch++) {
          await writer.ingest(projectId, randomViews(random, 30, 1, 12));
          for (const [i, answer] of (await recounted(sql, projectId)).entries()) states[i].add(answer);
          if (batch % 4 === 3) await writer.fold();
          // room for the reader between batches (on SQLite both share one thread)
          await sleep(10);
        }
      } finally {
        writing = false;
      }
    })();
    const answers: string[][] = [];
    while (writing) {
      answers.push(await served(reader, projectId));
      // SQLite answers without leaving the microtask queue: let the writer's timers run
      await sleep(1);
    }
    await writes;
    expect(answers.length).toBeGreaterThan(5);
    expect(states[0].size).toBeGreaterThan(10);
    const torn = answers.flatMap((answer) => answer.filter((one, i) => !states[i].has(one)));
    expect(torn).toEqual([]);
    // read-your-writes with events not folded yet: an answer now is the last state's
    expect(await served(reader, projectId)).toEqual(await recounted(sql, projectId));
  });

  it('answer exactly before, at the start, in the middle and at the end of a rebuild', async () => {
    const projectId = 'prj_rebuilt';
    await writer.ingest(projectId, randomViews(rng(3), 600, 0, 14));
    await writer.fold();
    const expected = await recounted(sql, projectId);
    // warm: cached unions of the days the rebuild is about to clear
    expect(await served(reader, projectId)).toEqual(expected);
    // reports started beside the rebuild's first transaction, and after each of its chunks: they run on while it goes
    const pending: Promise<string[]>[] = [served(reader, projectId)];
    const rebuild = rebuildDerived(sql, {
      projectId,
      chunk: 40,
      onProgress: () => pending.push(served(reader, projectId)),
    });
    pending.push(served(reader, projectId));
    await rebuild;
    pending.push(served(reader, projectId));
    const answers = await Promise.all(pending);
    expect(answers.length).toBeGreaterThan(10);
    const wrong = answers.filter((answer) => canonical(answer) !== canonical(expected));
    expect(wrong).toEqual([]);
  });
});
