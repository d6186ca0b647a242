import {
  clickHouseMigrations,
  createDatabase,
  migrationsTable,
} from '../../../src/analytics/clickhouse/clickhouse-schema.js';

describe('ClickHouse schema', () => {
  it('on one server: a MergeTree of raw views by month, ordered for the reports, deduplicating retried inserts', () => {
    const layout = { database: 'scribe' };
    expect(createDatabase(layout)).toBe('CREATE DATABASE IF NOT EXISTS scribe');
    const [views] = clickHouseMigrations(layout)[0]!.statements;
    expect(clickHouseMigrations(layout)[0]!.statements).toHaveLength(1);
    expect(views).toContain('CREATE TABLE IF NOT EXISTS scribe.page_views (');
    expect(views).toContain(') ENGINE = MergeTree\nPARTITION BY toYYYYMM(day)\nORDER BY (project, day, path, kind)');
    expect(views).toContain('SETTINGS non_replicated_deduplication_window = 10000');
    expect(views).not.toContain('ON CLUSTER');
    expect(migrationsTable(layout)).toEqual([expect.stringContaining(') ENGINE = MergeTree\nORDER BY version')]);
  });

  it('on a cluster: ON CLUSTER, replicated local tables per shard, and a Distributed table sharded by project', () => {
    const layout = { database: 'scribe', cluster: 'docs' };
    expect(createDatabase(layout)).toBe('CREATE DATABASE IF NOT EXISTS scribe ON CLUSTER docs');
    const [local, distributed] = clickHouseMigrations(layout)[0]!.statements;
    expect(local).toContain('CREATE TABLE IF NOT EXISTS scribe.page_views_local ON CLUSTER docs (');
    expect(local).toContain(
      ") ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/scribe/page_views_local', '{replica}')\nPARTITION BY toYYYYMM(day)\nORDER BY (project, day, path, kind)",
    );
    expect(local).not.toContain('non_replicated_deduplication_window');
    expect(distributed).toBe(
      'CREATE TABLE IF NOT EXISTS scribe.page_views ON CLUSTER docs AS scribe.page_views_local\nENGINE = Distributed(docs, scribe, page_views_local, cityHash64(project))',
    );
    expect(migrationsTable(layout)).toEqual([
      expect.stringContaining(
        "scribe.scribe_migrations ON CLUSTER docs (\n  version UInt32,\n  name String,\n  applied_at DateTime64(3, 'UTC') DEFAULT now64(3)\n) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/scribe/scribe_migrations', '{replica}')",
      ),
    ]);
  });

  it('keeps per-day aggregates by materialized views: views as sums, visitors as bitmap states', () => {
    const single = clickHouseMigrations({ database: 'scribe' })[1]!.statements;
    expect(single[0]).toContain(
      '  views SimpleAggregateFunction(sum, UInt64),\n  visitors AggregateFunction(groupBitmap, UInt64)',
    );
    expect(single[0]).toContain(
      ') ENGINE = AggregatingMergeTree\nPARTITION BY toYYYYMM(day)\nORDER BY (project, day, path, kind)',
    );
    expect(single[1]).toBe(
      'CREATE MATERIALIZED VIEW IF NOT EXISTS scribe.page_days_mv TO scribe.page_days AS\nSELECT project, day, path, kind, count() AS views, groupBitmapState(assumeNotNull(visitor)) AS visitors\nFROM scribe.page_views\nWHERE kind IN (1, 2) AND visitor IS NOT NULL\nGROUP BY project, day, path, kind',
    );
    const cluster = clickHouseMigrations({ database: 'scribe', cluster: 'docs' })[1]!.statements;
    expect(cluster[0]).toContain('CREATE TABLE IF NOT EXISTS scribe.page_days_local ON CLUSTER docs (');
    expect(cluster[0]).toContain(
      ") ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/scribe/page_days_local', '{replica}')",
    );
    expect(cluster[1]).toBe(
      'CREATE TABLE IF NOT EXISTS scribe.page_days ON CLUSTER docs AS scribe.page_days_local\nENGINE = Distributed(docs, scribe, page_days_local, cityHash64(project))',
    );
    expect(cluster[2]).toContain(
      'CREATE MATERIALIZED VIEW IF NOT EXISTS scribe.page_days_mv ON CLUSTER docs TO scribe.page_days_local AS',
    );
    expect(cluster[2]).toContain('FROM scribe.page_views_local\n');
  });

  it('numbers its migrations in order, every statement idempotent', () => {
    for (const layout of [{ database: 'scribe' }, { database: 'scribe', cluster: 'docs' }]) {
      const migrations = clickHouseMigrations(layout);
      expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
      // DDL only if it is not there yet; a check that refuses a database only reads; a backfill only adds visitors
      // to bitmap unions (no sums), so adding them twice changes nothing
      for (const statement of migrations.flatMap((m) => m.statements))
        expect(statement).toMatch(
          /IF NOT EXISTS|^SELECT throwIf\(|^INSERT INTO scribe\.site_days\nSELECT project, day, kind, groupBitmapState\(/,
        );
    }
  });
});
