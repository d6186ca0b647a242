import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Analytics } from '../../src/analytics/analytics.js';
import { readRangeLists } from '../../src/analytics/store/ai-range-lists.js';
import { openSql } from '../../src/analytics/store/sql.js';
import type { CliIo } from '../../src/cli/command.js';
import { runCli } from '../../src/cli/run-cli.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase, PROVIDERS } from '../support/databases.js';

const SECRET = 'ranges-secret-ranges-secret-ranges-secret';
const SHIPPED = path.resolve(import.meta.dirname, '../../src/analytics/ingest/ai-user-agents');

describe.each(PROVIDERS)('scribe ranges import on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-ranges-'));
    env = { DATABASE_URL: database.target.url, SCRIBE_SECRET: SECRET, SCRIBE_AI_RANGES_REFRESH: 'off' };
  });
  afterAll(async () => {
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: process.stdin, interactive: false };
    const code = await runCli(argv, io, env);
    return { code, out, err };
  };

  const folder = (name: string, files: Record<string, string>) => {
    const at = path.join(dir, name);
    fs.mkdirSync(at);
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(at, file), text);
    return at;
  };

  it('keeps downloaded lists as the copies every replica uses, dated by their download', async () => {
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const at = folder('fresh', {
      'bots.json': '{"creationTime":"2026-11-20T10:00:00Z","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}',
      'ccbot.json': '{"prefixes":[{"ipv4Prefix":"198.51.100.0/24"},{"ipv6Prefix":"2001:db8:c::/48"}],"extra":1}',
      'README.txt': 'not a list',
    });
    const result = await run(['ranges', 'import', '--retrieved', anHourAgo, at]);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.out).toContain(`imported  https://claude.com/crawling/bots.json: 1 prefixes, retrieved ${anHourAgo}`);
    // every list not imported is still the shipped snapshot, too old to call anyone spoofed
    expect(result.out.filter((l) => l.startsWith('stale')).length).toBeGreaterThan(0);
    expect(result.out.some((l) => l.includes('claude.com'))).toBe(true);
    expect(result.out.some((l) => l.startsWith('stale') && l.includes('claude.com'))).toBe(false);

    const sql = openSql(database.target);
    const rows = await readRangeLists(sql);
    await sql.close();
    expect(rows.map((r) => [r.url, r.prefixes, r.retrievedAt])).toEqual([
      ['https://claude.com/crawling/bots.json', ['192.0.2.0/24'], Date.parse(anHourAgo)],
      ['https://index.commoncrawl.org/ccbot.json', ['198.51.100.0/24', '2001:db8:c::/48'], Date.parse(anHourAgo)],
    ]);

    const replica = new Analytics({
      target: database.target,
      secret: SECRET,
      config: { saltRotation: 'never', trustedProxyHeader: undefined, cacheMb: 16 },
      logger: createLogger('silent'),
      clock: () => new Date(),
      autoFold: false,
    });
    try {
      const ranges = await replica.loadStoredRanges();
      const now = Date.now();
      expect(ranges.verify('Claude-SearchBot', '192.0.2.9', { now })).toBe('verified');
      expect(ranges.verify('ClaudeBot', '203.0.113.9', { now })).toBe('unverified');
      expect(ranges.verify('CCBot', '2001:db8:c::1', { now })).toBe('verified');
    } finally {
      await replica.close();
    }

    // the same files again, or older ones, change nothing
    const again = await run(['ranges', 'import', '--retrieved', anHourAgo, at]);
    expect(again.out).toContain(
      `skipped   https://claude.com/crawling/bots.json: 1 prefixes, retrieved ${anHourAgo} (older than the stored copy)`,
    );
  });

  it('takes a whole crawlers.json snapshot, dated by the file’s modification time', async () => {
    const at = folder('snapshot', { 'crawlers.json': fs.readFileSync(path.join(SHIPPED, 'crawlers.json'), 'utf8') });
    // whole seconds: every file system keeps them
    const yesterday = new Date(Math.floor(Date.now() / 1000 - 86_400) * 1000);
    fs.utimesSync(path.join(at, 'crawlers.json'), yesterday, yesterday);
    const result = await run(['ranges', 'import', at]);
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      `imported  https://openai.com/gptbot.json: 17 prefixes, retrieved ${yesterday.toISOString()}`,
    );
    // bots.json imported above is newer than this snapshot
    expect(result.out.some((l) => l.startsWith('skipped   https://claude.com/crawling/bots.json'))).toBe(true);
  });

  it('refuses a bad file, an unknown name, an empty folder or a bad date, and stores nothing of it', async () => {
    const before = JSON.stringify(
      await (async () => {
        const sql = openSql(database.target);
        try {
          return await readRangeLists(sql);
        } finally {
          await sql.close();
        }
      })(),
    );
    const html = await run([
      'ranges',
      'import',
      folder('html', { 'gptbot.json': '<!doctype html><p>Just a moment</p>' }),
    ]);
    expect([html.code, html.err[0]]).toEqual([1, 'scribe: gptbot.json: an HTML or XML page, not a JSON range list']);
    const unknown = await run([
      'ranges',
      'import',
      folder('unknown', { 'bots.json': '{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}', 'other.json': '{}' }),
    ]);
    expect([unknown.code, unknown.err[0]]).toEqual([1, 'scribe: other.json: no published list is named other.json']);
    const empty = await run(['ranges', 'import', folder('empty', {})]);
    expect(empty.code).toBe(2);
    expect(empty.err[0]).toMatch(/holds no \.json files/);
    const date = await run(['ranges', 'import', '--retrieved', 'yesterday', dir]);
    expect(date.code).toBe(2);
    const sql = openSql(database.target);
    try {
      expect(JSON.stringify(await readRangeLists(sql))).toBe(before);
    } finally {
      await sql.close();
    }
  });
});
