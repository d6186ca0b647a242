import { runCli } from '../../src/cli/run-cli.js';
import type { CliIo } from '../../src/cli/command.js';
import { authenticateApiKey } from '../../src/keys/api-keys.js';
import { openDatabase } from '../../src/db/client.js';
import { createEmptyDatabase, PROVIDERS, type TestDatabase } from '../support/databases.js';

function captureIo() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: process.stdin, interactive: false };
  return { io, out, err };
}

describe.each(PROVIDERS)('scribe CLI on %s', (provider) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createEmptyDatabase(provider);
    env = {
      DATABASE_URL:
        provider === 'sqlite' ? `file:${(database.target as { filePath: string }).filePath}` : database.target.url,
    };
  });
  afterAll(async () => {
    await database.drop();
  });
  const run = async (...argv: string[]) => {
    const captured = captureIo();
    const code = await runCli(argv, captured.io, env);
    return { code, ...captured };
  };

  it('migrates, adds, lists and removes projects', async () => {
    expect((await run('migrate')).out.at(-1)).toMatch(/^applied \d+_init/);
    expect((await run('migrate')).out).toEqual(['database is up to date']);

    const added = await run(
      'project',
      'add',
      '--repo',
      'acme/docs',
      '--ref',
      'main',
      '--installation',
      '7',
      '--host',
      'docs.acme.com',
      '--host',
      'acme.dev',
    );
    expect(added.code).toBe(0);
    const id = added.out.at(-1)!;
    expect(id).toMatch(/^prj_[0-9A-Za-z]{20}$/);

    const listed = await run('project', 'list');
    expect(listed.out).toEqual([
      `${id}\tacme/docs\tmain\tinstallation 7\tmanual\tenabled\thosts: docs.acme.com,acme.dev`,
    ]);

    const dup = await run('project', 'add', '--repo', 'acme/docs', '--ref', 'main');
    expect(dup.code).toBe(1);
    expect(dup.err).toEqual(['scribe: A project for acme/docs already exists']);

    const bad = await run('project', 'add', '--repo', 'not a repo', '--ref', 'main');
    expect(bad.code).toBe(1);
    expect(bad.err[0]).toBe('scribe: Invalid project: repository must be owner/name');

    expect((await run('project', 'remove', id)).out).toEqual([`removed project ${id} (acme/docs)`]);
    expect((await run('project', 'list')).out).toEqual(['no projects']);
    expect((await run('project', 'remove', id)).code).toBe(1);
  });

  it('creates a key shown once as the last line, lists it without the secret, and revokes it', async () => {
    const projectId = (await run('project', 'add', '--repo', 'acme/handbook', '--ref', 'docs')).out.at(-1)!;
    const created = await run('key', 'create', '--project', projectId, '--scope', 'write', '--expires', '30');
    expect(created.code).toBe(0);
    const key = created.out.at(-1)!;
    expect(key).toMatch(/^scribe_sk_[0-9A-Za-z]{40}$/);

    const { db, close } = openDatabase(database.target);
    try {
      const info = await authenticateApiKey({ db, clock: () => new Date(), presented: key });
      expect(info).toMatchObject({ projectId, scope: 'write' });
      expect(info.expiresAt!.getTime() - info.createdAt.getTime()).toBe(30 * 86_400_000);

      const listed = await run('key', 'list');
      expect(listed.out.join('\n')).not.toContain(key.slice(14));
      expect(listed.out.find((l) => l.startsWith(info.id))).toContain('\twrite\t');

      expect((await run('key', 'revoke', info.id)).out).toEqual([`revoked key ${info.id}`]);
      await expect(authenticateApiKey({ db, clock: () => new Date(), presented: key })).rejects.toThrow('revoked');
      expect((await run('key', 'list')).out.find((l) => l.startsWith(info.id))).toContain('\trevoked\t');
    } finally {
      await close();
    }
  });

  it('explains usage errors with exit code 2', async () => {
    expect((await run('key', 'create', '--scope', 'admin', '--all')).err[0]).toBe(
      'scribe: --scope must be read or write\n  usage: scribe key create --project <id>|--all --scope read|write [--expires <days>]',
    );
    expect((await run('key', 'create', '--scope', 'read')).code).toBe(2);
    expect((await run('key', 'create', '--scope', 'read', '--all', '--bogus')).err[0]).toMatch(
      /Unknown option '--bogus'/,
    );
    expect((await run('nonsense')).code).toBe(2);
    const help = await run('help');
    expect(help.code).toBe(0);
    expect(help.out[0]).toMatch(/^usage: scribe <command>\n/);
    expect(help.out[0]).toContain('  scribe key revoke <id>');
  });
});
