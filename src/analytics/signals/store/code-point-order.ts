import type { Sql } from '../../store/sql.js';

/** The collation that orders text by code point on each database: the order keyset cursors compare in. */
export function codePointCollation(sql: Sql): string {
  return sql.provider === 'sqlite' ? 'BINARY' : '"C"';
}
