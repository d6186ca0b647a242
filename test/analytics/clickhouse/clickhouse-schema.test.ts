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

  it('numbers its migrations in order, every statement idempotent', () => {
    for (const layout of [{ database: 'scribe' }, { database: 'scribe', cluster: 'docs' }]) {
      const migrations = clickHouseMigrations(layout);
      expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
      for (const statement of migrations.flatMap((m) => m.statements)) expect(statement).toMatch(/IF NOT EXISTS/);
    }
  });
});
