import path from 'node:path';

export type DatabaseTarget =
  | { provider: 'sqlite'; url: string; filePath: string }
  | { provider: 'postgresql'; url: string };

const DEFAULT_SQLITE_FILE = './data/scribe.db';

/**
 * `file:` selects SQLite (relative paths are resolved against the working directory),
 * `postgres://` or `postgresql://` selects PostgreSQL. Anything else is a configuration error.
 */
export function parseDatabaseUrl(raw: string | undefined, cwd = process.cwd()): DatabaseTarget {
  const value = raw?.trim() || `file:${DEFAULT_SQLITE_FILE}`;
  if (value.startsWith('file:')) {
    const rest = value.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    if (!rest) throw new Error('a file: URL needs a path, e.g. file:./data/scribe.db');
    const filePath = rest === ':memory:' ? rest : path.resolve(cwd, rest);
    return { provider: 'sqlite', url: `file:${filePath}`, filePath };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new Error('not a valid postgresql:// URL');
    }
    return { provider: 'postgresql', url: value };
  }
  throw new Error('must start with file: (SQLite) or postgresql:// (PostgreSQL)');
}
