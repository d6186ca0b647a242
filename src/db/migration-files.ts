import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** One committed migration: prisma/<provider>/migrations/<name>/migration.sql. */
export interface MigrationFile {
  name: string;
  script: string;
  /** what Prisma stores in `_prisma_migrations.checksum`: the SHA-256 of migration.sql, in hex */
  checksum: string;
}

/** The migrations in `dir`, in the order they apply: Prisma's, the folder names sorted (they start with a timestamp). */
export function readMigrationFiles(dir: string): MigrationFile[] {
  return migrationNamesIn(dir).map((name) => {
    const script = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
    return { name, script, checksum: sha256(script) };
  });
}

/** The names alone, for readiness checks that only compare them with the database's. */
export function migrationNamesIn(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * Whether `script` is the one recorded with `checksum`. Like Prisma, a file whose line endings git turned between
 * LF and CRLF still matches: the recorded migration is the same SQL.
 */
export function matchesChecksum(script: string, checksum: string): boolean {
  return [script, script.replaceAll('\r\n', '\n'), script.replace(/\r?\n/g, '\r\n')].some(
    (s) => sha256(s) === checksum,
  );
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
