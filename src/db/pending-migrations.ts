import type { MigrationFile } from './migration-files.js';
import { matchesChecksum } from './migration-files.js';

/** A row of `_prisma_migrations`, as far as deciding what to apply needs it. */
export interface MigrationRow {
  migration_name: string;
  checksum: string;
  started_at: unknown;
  finished_at: unknown;
  rolled_back_at: unknown;
  logs: string | null;
}

/** Why the database cannot be migrated, in a sentence an operator can act on. */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** How an operator marks a failed migration after repairing the database by hand (what `prisma migrate resolve` does). */
function resolveHint(name: string): string {
  return (
    `Repair the database by hand, then either mark it rolled back so the next start applies it again ` +
    `(UPDATE _prisma_migrations SET rolled_back_at = CURRENT_TIMESTAMP WHERE migration_name = '${name}' AND ` +
    `finished_at IS NULL, or \`prisma migrate resolve --rolled-back ${name}\`), or, if you completed it by hand, ` +
    `\`prisma migrate resolve --applied ${name}\`.`
  );
}

export function failedMigrationMessage(params: { name: string; error: string }): string {
  return `migration ${params.name} failed: ${params.error}\nIt is recorded as failed in _prisma_migrations and no later migration will be applied until it is resolved. ${resolveHint(params.name)}`;
}

/**
 * The migrations still to apply, with `prisma migrate deploy`'s rules: a row rolled back (`prisma migrate resolve
 * --rolled-back`) does not count, and a row that started but never finished is a failed migration that blocks every
 * later one. Unlike deploy, an applied migration whose file changed since is refused: the database would no longer be
 * what the files describe.
 */
export function pendingMigrations(files: MigrationFile[], rows: MigrationRow[]): MigrationFile[] {
  const live = rows.filter((row) => row.rolled_back_at == null);
  const failed = live.find((row) => row.finished_at == null);
  if (failed) {
    throw new MigrationError(
      `migration ${failed.migration_name} failed (started ${String(failed.started_at)}) and blocks every later one` +
        `${failed.logs ? `; its error: ${failed.logs}` : ''}\n${resolveHint(failed.migration_name)}`,
    );
  }
  const applied = new Map(live.map((row) => [row.migration_name, row]));
  for (const file of files) {
    const row = applied.get(file.name);
    if (row && !matchesChecksum(file.script, row.checksum)) {
      throw new MigrationError(
        `migration ${file.name} was changed after it was applied: the database recorded checksum ${row.checksum}, ` +
          `its migration.sql now has ${file.checksum}. Restore the file as it was applied and put the change in a new migration.`,
      );
    }
  }
  return files.filter((file) => !applied.has(file.name));
}
