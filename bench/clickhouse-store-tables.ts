/** The tables of `npm run bench:analytics -- --store clickhouse` (bench/clickhouse-store.ts): ClickHouse ÷ embedded. */
import type { ClickHouseTable, StoreComparison } from './clickhouse-store.js';
import { ms } from './report-targets.js';

const n = (x: number) => Math.round(x).toLocaleString('en');
const ratio = (x: number) => `${x < 10 ? x.toFixed(2) : Math.round(x).toLocaleString('en')}×`;
const seconds = (x: number) => `${x.toFixed(1)} s`;
const label = (c: StoreComparison) => `${c.provider} | ${c.size.toLocaleString('en')}`;

/** Ingest rate, catch-up (fold or ship) and memory, each store and their ratio. */
export function ingestTable(results: StoreComparison[]): string {
  const lines = [
    '| database | page views | store | ingest events/s | ingest | until the first export answers (folded / outbox shipped) | all stored and folded / shipped | outbox when the ingest ended / most /readyz reported | server peak RSS |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const c of results) {
    for (const run of [c.embedded, c.clickhouse]) {
      lines.push(
        `| ${label(c)} | ${run.store} | ${n(run.accepted / run.ingestSeconds)} | ${seconds(run.ingestSeconds)} | ` +
          `${seconds(run.catchUpMs / 1000)} | ${seconds(run.ingestSeconds + run.catchUpMs / 1000)} | ` +
          `${run.outbox ? `${n(run.outbox.atIngestEnd)} / ${n(run.outbox.peakReported)}` : '—'} | ${run.serverPeakRssMb} MiB |`,
      );
    }
    const [e, h] = [c.embedded, c.clickhouse];
    const total = (r: typeof e) => r.ingestSeconds + r.catchUpMs / 1000;
    lines.push(
      `| ${label(c)} | **ClickHouse ÷ embedded** | ${ratio(h.accepted / h.ingestSeconds / (e.accepted / e.ingestSeconds))} | ` +
        `${ratio(h.ingestSeconds / e.ingestSeconds)} | ${ratio(h.catchUpMs / e.catchUpMs)} | ${ratio(total(h) / total(e))} | | ` +
        `${ratio(h.serverPeakRssMb / e.serverPeakRssMb)} |`,
    );
  }
  return lines.join('\n');
}

/** Each page-view report's first call after a restart and warm p50 on both stores, and whether they agree. */
export function reportsTable(results: StoreComparison[]): string {
  const lines = [
    '| database | page views | report | embedded first ms | ClickHouse first ms | first: ClickHouse ÷ embedded | embedded warm p50 ms | ClickHouse warm p50 ms | p50: ClickHouse ÷ embedded | same answer |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const c of results) {
    for (const e of c.embedded.reports) {
      const h = c.clickhouse.reports.find((r) => r.report === e.report)!;
      lines.push(
        `| ${label(c)} | ${e.report} | ${ms(e.firstMs)} | ${ms(h.firstMs)} | ${ratio(h.firstMs / e.firstMs)} | ` +
          `${ms(e.p50)} | ${ms(h.p50)} | ${ratio(h.p50 / e.p50)} | ${e.answer === h.answer ? 'yes' : '**NO — MISMATCH**'} |`,
      );
    }
  }
  return lines.join('\n');
}

/** The reports whose answers differ between the stores, as `database size report`. */
export function mismatches(results: StoreComparison[]): string[] {
  return results.flatMap((c) =>
    c.embedded.reports
      .filter((e) => c.clickhouse.reports.find((r) => r.report === e.report)?.answer !== e.answer)
      .map((e) => `${c.provider} ${c.size} ${e.report}`),
  );
}

/** Bytes per store: ClickHouse's active parts per table (system.parts) against the embedded primary database. */
export function storageTable(results: StoreComparison[]): string {
  const lines = [
    '| database | page views | where | active parts | rows | bytes | bytes per page view | ÷ embedded primary database |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const c of results) {
    const views = c.embedded.accepted;
    const embedded = c.embedded.primaryBytes;
    const row = (where: string, bytes: number, parts = '', rows = '') =>
      `| ${label(c)} | ${where} | ${parts} | ${rows} | ${n(bytes)} | ${(bytes / views).toFixed(1)} | ${ratio(bytes / embedded)} |`;
    const primaryName = c.provider === 'sqlite' ? 'SQLite file (with WAL)' : 'PostgreSQL database (pg_database_size)';
    lines.push(row(`embedded: ${primaryName}`, embedded));
    const tables = (when: string, parts: ClickHouseTable[] | undefined) => {
      for (const t of parts ?? []) lines.push(row(`ClickHouse ${when}: ${t.table}`, t.bytes, n(t.parts), n(t.rows)));
      const sum = (parts ?? []).reduce((s, t) => s + t.bytes, 0);
      const count = (parts ?? []).reduce((s, t) => s + t.parts, 0);
      lines.push(row(`**ClickHouse ${when}: all tables**`, sum, n(count)));
    };
    tables('just shipped', c.clickhouse.clickhouseShipped);
    tables('after the reports', c.clickhouse.clickhouseLater);
    lines.push(row(`with ClickHouse: ${primaryName} (outbox emptied)`, c.clickhouse.primaryBytes));
  }
  return lines.join('\n');
}

/** Every table, with a loud line for any report whose answers differ. */
export function comparisonReport(results: StoreComparison[], reps: number): string {
  const wrong = mismatches(results);
  return [
    '\nIngest through HTTP (same generated views for both stores):\n',
    ingestTable(results),
    `\nPage-view reports, 30-day range (first call: the first request to a new server process after its warm-up; warm p50 over ${reps} requests after it; ClickHouse stand-in round trip, SELECT 1 p50: ${results.map((c) => `${c.size.toLocaleString('en')} ${c.provider}: ${c.standInRoundTripMs.toFixed(1)} ms`).join(', ')}):\n`,
    reportsTable(results),
    ...(wrong.length
      ? [`\n!!!!!!!! MISMATCH: CLICKHOUSE AND EMBEDDED ANSWER DIFFERENTLY: ${wrong.join('; ')} !!!!!!!!`]
      : []),
    '\nStorage:\n',
    storageTable(results),
  ].join('\n');
}
