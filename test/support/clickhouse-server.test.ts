import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { startClickHouseStandIn, type ClickHouseStandIn } from './clickhouse-server.js';

let standIn: ClickHouseStandIn;
let client: ClickHouseClient;
beforeAll(async () => {
  standIn = await startClickHouseStandIn();
  const admin = createClient({ url: new URL('/', standIn.url).toString().replace(/\/$/, '') });
  await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${standIn.database}` });
  await admin.close();
  client = createClient({ url: standIn.url, compression: { request: true, response: true } });
});
afterAll(async () => {
  await client.close();
  await standIn.close();
});

describe('ClickHouse stand-in', () => {
  it('answers /ping and runs DDL, inserts and selects through the official client', async () => {
    expect((await client.ping()).success).toBe(true);
    await client.command({
      query: `CREATE TABLE t (id UInt32, path String) ENGINE = MergeTree ORDER BY id
              SETTINGS non_replicated_deduplication_window = 100`,
    });
    await client.insert({
      table: 't',
      values: [
        { id: 1, path: '/ä/b' },
        { id: 2, path: "/it's\ttab" },
      ],
      format: 'JSONEachRow',
    });
    const rows = await client.query({ query: 'SELECT id, path FROM t ORDER BY id', format: 'JSONEachRow' });
    expect(await rows.json()).toEqual([
      { id: 1, path: '/ä/b' },
      { id: 2, path: "/it's\ttab" },
    ]);
  });

  it('binds query parameters and reports the database and query id', async () => {
    const result = await client.query({
      query: 'SELECT {n:UInt32} + 1 AS n, {s:String} AS s, currentDatabase() AS db',
      query_params: { n: 41, s: "a'b\\c\nd" },
      query_id: 'q-1',
      format: 'JSONEachRow',
    });
    expect(result.query_id).toBe('q-1');
    expect(await result.json()).toEqual([{ n: 42, s: "a'b\\c\nd", db: standIn.database }]);
  });

  it('drops a repeated insert with the same deduplication token, and keeps settings to their request', async () => {
    await client.command({
      query: `CREATE TABLE d (id UInt32) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100`,
    });
    const insert = (token: string, ids: number[]) =>
      client.insert({
        table: 'd',
        values: ids.map((id) => ({ id })),
        format: 'JSONEachRow',
        clickhouse_settings: { insert_deduplication_token: token },
      });
    await insert('batch-1', [1, 2, 3]);
    await insert('batch-1', [1, 2, 3]);
    await insert('batch-2', [1, 2, 3]);
    const count = await client.query({ query: 'SELECT count() AS n FROM d', format: 'JSONEachRow' });
    const [{ n }] = (await count.json()) as [{ n: string | number }];
    expect(Number(n)).toBe(6);
    const token = await client.query({
      query: "SELECT getSetting('insert_deduplication_token') AS t",
      format: 'JSONEachRow',
    });
    expect(await token.json()).toEqual([{ t: '' }]);
  });

  it('reports errors as ClickHouse does', async () => {
    const error = await client.query({ query: 'SELECT * FROM missing_table' }).catch((e) => e);
    expect(error).toMatchObject({ code: '60', type: 'UNKNOWN_TABLE' });
    const wrong = createClient({ url: standIn.url.replace(':secret@', ':wrong@') });
    await expect(wrong.query({ query: 'SELECT 1' })).rejects.toMatchObject({ code: '516' });
    await wrong.close();
  });

  it('keeps its data across a kill and restart', async () => {
    await client.command({ query: 'CREATE TABLE k (id UInt32) ENGINE = MergeTree ORDER BY id' });
    await client.insert({ table: 'k', values: [{ id: 7 }], format: 'JSONEachRow' });
    await standIn.stop(true);
    await expect(client.ping()).resolves.toMatchObject({ success: false });
    await standIn.restart();
    const rows = await client.query({ query: 'SELECT id FROM k', format: 'JSONEachRow' });
    expect(await rows.json()).toEqual([{ id: 7 }]);
  });
});
