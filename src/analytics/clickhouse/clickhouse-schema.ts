/** Where Scribe's ClickHouse tables live: a database, and a cluster when the tables are spread over several servers. */
export interface ClickHouseLayout {
  database: string;
  cluster?: string;
}

/** One step of the ClickHouse schema; every statement is idempotent, so a step interrupted half way is simply rerun. */
export interface ClickHouseMigration {
  version: number;
  name: string;
  statements: string[];
  /**
   * A check's reason for refusing the database: a statement failing with it is a database Scribe must not use as
   * it is (see ClickHouseRefused), not ClickHouse being unreachable.
   */
  refusal?: string;
}

export const MIGRATIONS_TABLE = 'scribe_migrations';
/** The raw page views Scribe reads and writes (on a cluster: the Distributed table over the shards' local tables). */
export const PAGE_VIEWS = 'page_views';
/** Per day, page and class (human, AI): views as a sum and the visitors as a bitmap state. */
export const PAGE_DAYS = 'page_days';
/** Per day, agent cell (AI agents by verification, spoofed AI user agents) and page: views and visitors. */
export const AGENT_DAYS = 'agent_days';
/** Per day and class, the whole site's visitors as a bitmap state (the embedded site rollup's equivalent). */
export const SITE_DAYS = 'site_days';

/**
 * Blocks a non-replicated MergeTree remembers for insert deduplication: an outbox batch retried after a crash is
 * dropped if it was inserted within the last this many inserts (replicated tables keep their own default window).
 */
export const DEDUPLICATION_WINDOW = 10_000;

const name = (part: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(part) ? part : `\`${part.replaceAll('`', '\\`')}\``);

/** `CREATE DATABASE` for the layout (run before the migrations table exists). */
export function createDatabase(layout: ClickHouseLayout): string {
  return `CREATE DATABASE IF NOT EXISTS ${name(layout.database)}${onCluster(layout)}`;
}

function onCluster(layout: ClickHouseLayout): string {
  return layout.cluster ? ` ON CLUSTER ${name(layout.cluster)}` : '';
}

/**
 * A table and how it is stored: on one server the engine itself; on a cluster a replicated local table
 * (`<table>_local`, one replica set per shard, Keeper paths by shard) and, when `distributed`, a Distributed table
 * of the plain name over every shard's local table, sharded by project so a project's views live on one shard.
 */
function table(params: {
  layout: ClickHouseLayout;
  table: string;
  columns: string;
  engine: 'MergeTree' | 'AggregatingMergeTree';
  keys: string;
  /** on one server; replicated tables deduplicate by default */
  settings?: string;
  distributed: boolean;
}): string[] {
  const { layout, columns, engine, keys, settings, distributed } = params;
  const db = name(layout.database);
  if (!layout.cluster) {
    const with_ = settings ? `\nSETTINGS ${settings}` : '';
    return [
      `CREATE TABLE IF NOT EXISTS ${db}.${name(params.table)} (\n${columns}\n) ENGINE = ${engine}\n${keys}${with_}`,
    ];
  }
  const local = distributed ? `${params.table}_local` : params.table;
  const path = `/clickhouse/tables/{shard}/${layout.database}/${local}`;
  const statements = [
    `CREATE TABLE IF NOT EXISTS ${db}.${name(local)}${onCluster(layout)} (\n${columns}\n) ENGINE = Replicated${engine}('${path}', '{replica}')\n${keys}`,
  ];
  if (distributed) {
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${db}.${name(params.table)}${onCluster(layout)} AS ${db}.${name(local)}\nENGINE = Distributed(${name(layout.cluster)}, ${db}, ${name(local)}, cityHash64(project))`,
    );
  }
  return statements;
}

/**
 * A table of page views or of their per-day aggregates: a project's rows by month and day, then `order`; on one
 * server deduplicating retried inserts, on a cluster spread over the shards by project.
 */
function viewsTable(
  layout: ClickHouseLayout,
  params: { table: string; engine: 'MergeTree' | 'AggregatingMergeTree'; columns: string[]; order: string },
): string[] {
  return table({
    layout,
    table: params.table,
    columns: ['project LowCardinality(String)', 'day Date', ...params.columns].map((c) => `  ${c}`).join(',\n'),
    engine: params.engine,
    keys: `PARTITION BY toYYYYMM(day)\nORDER BY (project, day, ${params.order})`,
    settings: `non_replicated_deduplication_window = ${DEDUPLICATION_WINDOW}`,
    distributed: true,
  });
}

/** The table recording which migrations ran (on a cluster, replicated within each shard). */
export function migrationsTable(layout: ClickHouseLayout): string[] {
  return table({
    layout,
    table: MIGRATIONS_TABLE,
    columns: "  version UInt32,\n  name String,\n  applied_at DateTime64(3, 'UTC') DEFAULT now64(3)",
    engine: 'MergeTree',
    keys: 'ORDER BY version',
    distributed: false,
  });
}

/**
 * Scribe's ClickHouse schema, in order. Raw page views: one row per accepted view, partitioned by month, ordered by
 * project, day, page and class — the order the per-day folds and every report read them in. The visitor is its
 * number in the primary's visitor dictionary (see write-outbox.ts); null for other bots, as in the embedded store.
 */
export function clickHouseMigrations(layout: ClickHouseLayout): ClickHouseMigration[] {
  return [
    {
      version: 1,
      name: 'page_views',
      statements: viewsTable(layout, {
        table: PAGE_VIEWS,
        engine: 'MergeTree',
        columns: [
          "ts DateTime64(3, 'UTC')",
          'path String',
          'visitor Nullable(UInt64)',
          'kind UInt8',
          'agent LowCardinality(Nullable(String))',
          'referrer Nullable(String)',
          'verification Nullable(UInt8)',
        ],
        order: 'path, kind',
      }),
    },
    {
      version: 2,
      name: 'page_days',
      statements: [
        ...viewsTable(layout, {
          table: PAGE_DAYS,
          engine: 'AggregatingMergeTree',
          columns: [
            'path String',
            'kind UInt8',
            'views SimpleAggregateFunction(sum, UInt64)',
            'visitors AggregateFunction(groupBitmap, UInt64)',
          ],
          order: 'path, kind',
        }),
        materializedView(layout, PAGE_DAYS, pageDaysSelect),
      ],
    },
    {
      version: 3,
      name: 'agent_days',
      statements: [
        ...viewsTable(layout, {
          table: AGENT_DAYS,
          engine: 'AggregatingMergeTree',
          columns: [
            'kind UInt8',
            'agent LowCardinality(String)',
            'verification UInt8',
            'path String',
            'views SimpleAggregateFunction(sum, UInt64)',
            'visitors AggregateFunction(groupBitmap, UInt64)',
          ],
          order: 'kind, agent, verification, path',
        }),
        materializedView(layout, AGENT_DAYS, agentDaysSelect),
      ],
    },
    {
      // Visitors became numbers of the primary's visitor dictionary (write-outbox.ts). Views shipped before carry
      // ids taken from the hash, which would count each of their visitors twice beside the new ones: a database
      // holding any is refused (start-up reports why) rather than mixed. Read-only, so rerunning it changes nothing.
      version: 4,
      name: 'visitor_numbers',
      statements: [
        `SELECT throwIf(count() > 0, ${quote(OLDER_VISITOR_IDS)}) FROM ${name(layout.database)}.${PAGE_VIEWS}`,
      ],
      refusal: OLDER_VISITOR_IDS,
    },
    {
      version: 5,
      name: 'site_days',
      statements: [
        ...viewsTable(layout, {
          table: SITE_DAYS,
          engine: 'AggregatingMergeTree',
          columns: ['kind UInt8', 'visitors AggregateFunction(groupBitmap, UInt64)'],
          order: 'kind',
        }),
        materializedView(layout, SITE_DAYS, siteDaysSelect),
        siteDaysBackfill(layout),
      ],
    },
  ];
}

/** Why a ClickHouse database filled by a build that shipped hash-derived visitor ids is refused. */
export const OLDER_VISITOR_IDS =
  'page_views holds views shipped by an older Scribe (visitor ids from the hash, not visitor numbers); ' +
  'point CLICKHOUSE_URL at a new database and fill it with: scribe analytics copy --to clickhouse';

const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/**
 * Keeps `agent_days`: AI views (kind 2) by agent ('' when unnamed) and verification (a missing one read as 2,
 * unverifiable), and spoofed AI user agents (kind 0, agent "unverified <name>", verification 0; stored as bots,
 * usually without a visitor, so their views count and only known visitors enter the bitmap), and humans an AI
 * assistant sent (kind 1, agent "via <assistant>"), by page — the cells of the embedded agent rollup.
 */
const agentDaysSelect = (source: string) =>
  [
    "SELECT project, day, kind, ifNull(agent, '') AS agent, if(kind = 2, ifNull(verification, 2), 0) AS verification, path,",
    "  count() AS views, CAST(groupBitmapIfState(assumeNotNull(visitor), visitor IS NOT NULL), 'AggregateFunction(groupBitmap, UInt64)') AS visitors",
    `FROM ${source}`,
    "WHERE (kind = 2 AND visitor IS NOT NULL) OR (kind = 0 AND startsWith(ifNull(agent, ''), 'unverified '))",
    "  OR (kind = 1 AND startsWith(ifNull(agent, ''), 'via ') AND visitor IS NOT NULL)",
    'GROUP BY project, day, kind, agent, verification, path',
  ].join('\n');

/**
 * Keeps `site_days`: per day and counted class, the union of every page's visitors, so the site-wide figures (the
 * export's totals, visitors per day) merge a state per day instead of one per page and day.
 */
const siteDaysSelect = (source: string) =>
  [
    'SELECT project, day, kind, groupBitmapState(assumeNotNull(visitor)) AS visitors',
    `FROM ${source}`,
    'WHERE kind IN (1, 2) AND visitor IS NOT NULL',
    'GROUP BY project, day, kind',
  ].join('\n');

/**
 * Fills `site_days` from the views stored before it existed (the view above keeps it from then on). Run after the
 * view is created, so no view falls between the two; a view read by both, or a rerun after a start-up killed half
 * way, adds its visitor to a bitmap union again, which changes nothing. On a cluster the Distributed tables carry
 * it: the select reads every shard and the insert goes back to each project's shard.
 */
function siteDaysBackfill(layout: ClickHouseLayout): string {
  const db = name(layout.database);
  return `INSERT INTO ${db}.${name(SITE_DAYS)}\n${siteDaysSelect(`${db}.${name(PAGE_VIEWS)}`)}`;
}

/**
 * Keeps the table `aggregate` from the raw views as they are inserted (on a cluster, shard by shard: each local insert
 * feeds its shard's local aggregate), by `select` over the raw table it is handed. A block ClickHouse drops as a
 * duplicate of an earlier insert never reaches the view.
 */
function materializedView(layout: ClickHouseLayout, aggregate: string, select: (source: string) => string): string {
  const db = name(layout.database);
  const [source, target] = layout.cluster ? [`${PAGE_VIEWS}_local`, `${aggregate}_local`] : [PAGE_VIEWS, aggregate];
  return `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.${name(`${aggregate}_mv`)}${onCluster(layout)} TO ${db}.${name(target)} AS\n${select(`${db}.${name(source)}`)}`;
}

/**
 * Keeps `page_days`: counted classes only (1 human, 2 AI), as the embedded day sets. Created with the raw table,
 * before any row exists, so it needs no backfill.
 */
const pageDaysSelect = (source: string) =>
  [
    'SELECT project, day, path, kind, count() AS views, groupBitmapState(assumeNotNull(visitor)) AS visitors',
    `FROM ${source}`,
    'WHERE kind IN (1, 2) AND visitor IS NOT NULL',
    'GROUP BY project, day, path, kind',
  ].join('\n');
