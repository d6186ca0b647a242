import path from 'node:path';
import { runCli } from '../../src/cli/run-cli.js';
import type { CliIo } from '../../src/cli/command.js';
import { openSql } from '../../src/analytics/store/sql.js';
import { analyticsRoutes } from '../../src/http/routes/analytics.js';
import { PROVIDERS } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/analytics');
const SECRET = 'test-secret-test-secret-test-secret-0123';

describe.each(PROVIDERS)('scribe analytics rebuild on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let key: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsRoutes({ analytics })],
      env: { SCRIBE_SECRET: SECRET },
    });
    projectId = (await app.project()).id;
    key = await app.key(projectId, 'read');
    env = { DATABASE_URL: app.ctx.database.url, SCRIBE_SECRET: SECRET };
  });
  afterAll(async () => {
    await app.close();
  });

  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), stdin: process.stdin, interactive: false };
    const code = await runCli(argv, io, env);
    return { code, out, err };
  };
  const report = async () => {
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/views?dateFrom=2026-11-01&dateTo=2026-11-30`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return res.json();
  };

  it("re-derives a project's rows with progress, and every project's without --project", async () => {
    expect(
      (await run(['logs', 'import', '--project', projectId, path.join(FIXTURES, 'access-combined.txt')])).code,
    ).toBe(0);
    const before = await report();
    // derived rows lost (as an operator clearing a bad state would find them): the rebuild derives them again
    const sql = openSql(app.ctx.database);
    const views = async () => {
      const [row] = await sql.query<{ n: unknown }>('SELECT SUM("views") AS n FROM "AnalyticsDayViews"');
      return Number(row.n ?? 0);
    };
    const counted = await views();
    expect(counted).toBeGreaterThan(0);
    await sql.run('DELETE FROM "AnalyticsDayViews"');
    const one = await run(['analytics', 'rebuild', '--project', projectId]);
    expect(await views()).toBe(counted);
    await sql.close();
    expect(one.code).toBe(0);
    expect(one.out[0]).toMatch(new RegExp(`^rebuilding ${projectId} \\(\\d+ events\\)$`));
    expect(one.out.at(-1)).toMatch(/^rebuilt 1 project from \d+ events$/);
    expect(await report()).toEqual(before);
    const all = await run(['analytics', 'rebuild']);
    expect(all.code).toBe(0);
    expect(all.out.at(-1)).toMatch(/^rebuilt 1 project from \d+ events$/);
    expect(await report()).toEqual(before);
  });

  it('refuses an unknown project (1) and stray arguments (2)', async () => {
    expect((await run(['analytics', 'rebuild', '--project', 'prj_unknown'])).code).toBe(1);
    expect((await run(['analytics', 'rebuild', 'everything'])).code).toBe(2);
  });
});
