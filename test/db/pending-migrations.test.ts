import { createHash } from 'node:crypto';
import { MigrationError, pendingMigrations, type MigrationRow } from '../../src/db/pending-migrations.js';
import type { MigrationFile } from '../../src/db/migration-files.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const file = (name: string, script = `CREATE TABLE "${name}" (id INT);\n`): MigrationFile => ({
  name,
  script,
  checksum: sha(script),
});
const row = (migration: MigrationFile, over: Partial<MigrationRow> = {}): MigrationRow => ({
  migration_name: migration.name,
  checksum: migration.checksum,
  started_at: '2026-11-01T00:00:00.000+00:00',
  finished_at: '2026-11-01T00:00:01.000+00:00',
  rolled_back_at: null,
  logs: null,
  ...over,
});

describe('pendingMigrations', () => {
  const [a, b, c] = [file('20260101000000_a'), file('20260102000000_b'), file('20260103000000_c')];

  it('is every file the database has not applied, in order', () => {
    expect(pendingMigrations([a, b, c], [])).toEqual([a, b, c]);
    expect(pendingMigrations([a, b, c], [row(a), row(c)])).toEqual([b]);
    expect(pendingMigrations([a, b], [row(a), row(b)])).toEqual([]);
  });

  it('applies again a migration marked rolled back, and ignores rolled-back failures', () => {
    const rolledBack = row(b, { finished_at: null, rolled_back_at: '2026-11-02T00:00:00.000+00:00', logs: 'boom' });
    expect(pendingMigrations([a, b], [row(a), rolledBack])).toEqual([b]);
  });

  it('refuses to go on past a failed migration, naming it, its error and how to resolve it', () => {
    const failed = row(b, { finished_at: null, logs: 'relation "x" does not exist' });
    const attempt = () => pendingMigrations([a, b, c], [row(a), failed]);
    expect(attempt).toThrow(MigrationError);
    expect(attempt).toThrow(/migration 20260102000000_b failed .*blocks every later one; its error: relation "x"/);
    expect(attempt).toThrow(/rolled_back_at/);
  });

  it('refuses an applied migration whose file changed since, with both checksums', () => {
    const edited = { ...b, script: `${b.script}-- edited\n`, checksum: sha(`${b.script}-- edited\n`) };
    const attempt = () => pendingMigrations([a, edited, c], [row(a), row(b)]);
    expect(attempt).toThrow(MigrationError);
    expect(attempt).toThrow(`migration ${b.name} was changed after it was applied`);
    expect(attempt).toThrow(b.checksum);
    expect(attempt).toThrow(edited.checksum);
  });

  it('takes a file whose line endings turned between LF and CRLF for the one applied, as Prisma does', () => {
    const crlf = { ...b, script: b.script.replaceAll('\n', '\r\n'), checksum: sha(b.script.replaceAll('\n', '\r\n')) };
    expect(pendingMigrations([a, crlf, c], [row(a), row(b)])).toEqual([c]);
    expect(pendingMigrations([a, b, c], [row(a), row(crlf)])).toEqual([c]);
  });
});
