import pg from 'pg';
import { dictionaryIdsStatement } from '../../../src/analytics/store/dictionary-ids.js';
import { useTestDatabase } from '../../support/databases.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows (or index entries) the plan's scans of `table` and its indexes read, kept or filtered out. */
function rowsRead(node: PlanNode, table: string): number {
  const scans =
    node['Node Type'].endsWith('Scan') &&
    (node['Relation Name'] === table || node['Index Name']?.startsWith(`${table}_`));
  const own = scans
    ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) *
      node['Actual Loops']
    : 0;
  return own + (node.Plans ?? []).reduce((n, child) => n + rowsRead(child, table), 0);
}

describe('dictionary ids statement on postgresql', () => {
  const database = useTestDatabase('postgresql');
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: database.target.url });
    // the database may be dropped (with its connections) before this client is ended
    client.on('error', () => undefined);
    await client.connect();
    // many visitors of one project, in a table PostgreSQL has no statistics for yet (as after a burst of new visitors)
    await client.query(
      `INSERT INTO "AnalyticsVisitor" ("projectId", "hash") SELECT 'prj_a', 'h' || g FROM generate_series(1, 20000) g`,
    );
  });
  afterAll(async () => {
    await client.end();
  });

  it('returns the ids of known keys and numbers new ones in the order given', async () => {
    await client.query('BEGIN');
    try {
      const { rows } = await client.query<{ id: number; key: string }>(
        dictionaryIdsStatement('AnalyticsVisitor', 'hash'),
        ['prj_a', ['new-b', 'h7', 'new-a', 'h19999']],
      );
      const ids = new Map(rows.map((r) => [r.key, Number(r.id)]));
      expect([...ids.keys()].sort()).toEqual(['h19999', 'h7', 'new-a', 'new-b']);
      expect(ids.get('h7')).toBe(7);
      expect(ids.get('h19999')).toBe(19999);
      expect(ids.get('new-b')! < ids.get('new-a')!).toBe(true);
    } finally {
      await client.query('ROLLBACK');
    }
  });

  it('reads only the rows of its keys, whatever the table statistics', async () => {
    const keys = [
      ...Array.from({ length: 40 }, (_, i) => `h${i * 400 + 1}`),
      ...Array.from({ length: 40 }, (_, i) => `new-${i}`),
    ];
    await client.query('BEGIN');
    try {
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${dictionaryIdsStatement('AnalyticsVisitor', 'hash')}`,
        ['prj_a', keys],
      );
      expect(rowsRead(rows[0]['QUERY PLAN'][0].Plan, 'AnalyticsVisitor')).toBeLessThanOrEqual(keys.length);
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
