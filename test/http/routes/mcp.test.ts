import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DocsSites } from '../../../src/http/mcp/docs-sites.js';
import { readDocsFiles } from '../../../src/http/mcp/read-docs-files.js';
import { mcpRoutes } from '../../../src/http/routes/mcp.js';
import { analyticsAiRoutes } from '../../../src/http/routes/analytics-ai.js';
import { analyticsBreakdownRoutes } from '../../../src/http/routes/analytics-breakdowns.js';
import { setDocsAccess } from '../../../src/projects/docs-access.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { operatorKey, signedHeaders } from '../../support/web-bot-auth-signer.js';

const CLAUDE_USER =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)';

/** A local docs repository: a Mintlify navigation and three pages, committed. */
function docsRepository(): { dir: string; head: () => string; commit: (file: string, text: string) => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-docs-repo-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir }).toString();
  const commit = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
    git('add', '--all');
    git('commit', '--quiet', '-m', `write ${file}`);
  };
  git('init', '--quiet', '-b', 'main');
  fs.writeFileSync(
    path.join(dir, 'docs.json'),
    JSON.stringify({
      navigation: {
        groups: [
          { group: 'Start', pages: ['index', 'guide/install'] },
          { group: 'API', pages: ['api/keys'] },
        ],
      },
    }),
  );
  fs.writeFileSync(path.join(dir, 'index.mdx'), '---\ntitle: Welcome\n---\nScribe writes docs.\n');
  fs.mkdirSync(path.join(dir, 'guide'));
  fs.writeFileSync(
    path.join(dir, 'guide/install.md'),
    '# Install\n\nRun the installer with npm, then start the server.\n',
  );
  commit('api/keys.md', '# API keys\n\nCreate a read key to export analytics.\n');
  return { dir, head: () => git('rev-parse', 'HEAD').trim(), commit };
}

describe('docs over MCP', () => {
  let app: TestApp;
  let repo: ReturnType<typeof docsRepository>;
  let projectId: string;
  let readKey: string;
  let now = Date.parse('2026-11-21T12:00:00Z');
  beforeAll(async () => {
    repo = docsRepository();
    const sites = new DocsSites({
      now: () => now,
      source: {
        headSha: async () => repo.head(),
        files: (_project, sha) => readDocsFiles({ url: repo.dir, sha, token: 'unused' }),
      },
    });
    app = await startTestApp({
      provider: 'sqlite',
      routes: ({ analytics }) => [
        mcpRoutes({ analytics, sites }),
        analyticsBreakdownRoutes({ analytics }),
        analyticsAiRoutes({ analytics }),
      ],
      clock: () => new Date(now),
    });
    projectId = (await app.project()).id;
    readKey = await app.key(projectId, 'read');
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(repo.dir, { recursive: true, force: true });
  });

  const connect = async (headers: Record<string, string> = { authorization: `Bearer ${readKey}` }) => {
    const client = new Client({ name: 'docs-tester', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp/${projectId}`), {
        requestInit: { headers: { 'user-agent': 'node', ...headers } },
      }),
    );
    return client;
  };
  const json = (result: unknown) => JSON.parse((result as { content: { text: string }[] }).content[0].text);

  it('lists, searches and reads the docs with the official client, and counts each read as an AI view', async () => {
    const client = await connect();
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
      'list_pages',
      'read_page',
      'search_docs',
    ]);
    expect(json(await client.callTool({ name: 'list_pages', arguments: {} })).groups).toEqual([
      {
        group: 'Start',
        pages: [
          { path: '/', title: 'Welcome' },
          { path: '/guide/install', title: 'Install' },
        ],
      },
      { group: 'API', pages: [{ path: '/api/keys', title: 'API keys' }] },
    ]);
    const hits = json(await client.callTool({ name: 'search_docs', arguments: { query: 'install npm' } })).results;
    expect(hits[0]).toMatchObject({ path: '/guide/install', title: 'Install' });
    expect(hits[0].snippet).toContain('npm');
    const page = json(await client.callTool({ name: 'read_page', arguments: { path: '/guide/install' } }));
    expect(page.markdown).toContain('Run the installer');
    await client.callTool({ name: 'read_page', arguments: { path: 'api/keys.md' } });
    await client.close();

    const agents = (await (
      await fetch(`${app.url}/v1/analytics/${projectId}/agents?dateFrom=2026-11-21&dateTo=2026-11-22`, {
        headers: { authorization: `Bearer ${readKey}` },
      })
    ).json()) as { agents: { agent: string; views: number }[] };
    // the client named itself: its reads are that agent's
    expect(agents.agents).toEqual([expect.objectContaining({ agent: 'docs-tester', views: 2 })]);
  });

  it('refuses traversal, unknown tools, oversized arguments and bad JSON-RPC clearly', async () => {
    const client = await connect();
    for (const bad of ['../../etc/passwd', 'guide/../../secret', 'guide\\install', '%2e%2e/x']) {
      const result = (await client.callTool({ name: 'read_page', arguments: { path: bad } })) as { isError?: boolean };
      expect([bad, result.isError]).toEqual([bad, true]);
    }
    const missing = await client.callTool({ name: 'read_page', arguments: { path: '/nope' } });
    expect(missing).toMatchObject({ isError: true, content: [{ text: 'no page at /nope' }] });
    const unknown = (await client.callTool({ name: 'rm_rf', arguments: {} })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0].text).toMatch(/rm_rf/);
    const oversized = (await client.callTool({ name: 'search_docs', arguments: { query: 'x'.repeat(501) } })) as {
      isError?: boolean;
    };
    expect(oversized.isError).toBe(true);
    await client.close();

    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${app.url}/mcp/${projectId}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${readKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
      });
    const broken = await post('{"jsonrpc": ');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: expect.any(String) });
    const notInitialized = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    expect(notInitialized.status).toBe(400);
    expect(((await notInitialized.json()) as { error: { message: string } }).error.message).toMatch(/initializ/i);
    const stale = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      'mcp-session-id': 'gone',
    });
    expect(stale.status).toBe(404);
    const huge = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { pad: 'x'.repeat(70_000) } }),
    );
    expect(huge.status).toBe(413);
    expect(
      (await fetch(`${app.url}/mcp/${projectId}`, { headers: { authorization: `Bearer ${readKey}` } })).status,
    ).toBe(405);
  });

  it('needs a read key unless the project made its docs public', async () => {
    const anonymous = await fetch(`${app.url}/mcp/${projectId}/llms.txt`);
    expect(anonymous.status).toBe(401);
    await setDocsAccess(app.ctx.db, { projectId, public: true, now: new Date(now) });
    const open = await fetch(`${app.url}/mcp/${projectId}/llms.txt`, { headers: { 'user-agent': CLAUDE_USER } });
    expect(open.status).toBe(200);
    const text = await open.text();
    expect(text).toContain('## Start');
    expect(text).toContain(`- [Install](/mcp/${projectId}/pages/guide/install.md)`);
    const page = await fetch(`${app.url}/mcp/${projectId}/pages/guide/install.md`, {
      headers: { 'user-agent': CLAUDE_USER },
    });
    expect(page.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await page.text()).toContain('Run the installer');
    expect((await fetch(`${app.url}/mcp/${projectId}/pages/guide/..%2F..%2Fdocs.json`)).status).toBe(404);
    await setDocsAccess(app.ctx.db, { projectId, public: false, now: new Date(now) });
    // llms.txt and the page, read by Claude's user agent: counted as its views, as MCP reads are
    const agents = (await (
      await fetch(`${app.url}/v1/analytics/${projectId}/agents?dateFrom=2026-11-21&dateTo=2026-11-22`, {
        headers: { authorization: `Bearer ${readKey}` },
      })
    ).json()) as { agents: { agent: string; views: number }[] };
    expect(agents.agents.find((a) => a.agent === 'Claude-User')).toMatchObject({ views: 2 });
  });

  it('rebuilds the index once the ref moves', async () => {
    repo.commit('guide/upgrade.md', '# Upgrade\n\nMigrate the database before upgrading.\n');
    const client = await connect();
    const before = json(await client.callTool({ name: 'search_docs', arguments: { query: 'migrate' } })).results;
    now += 61_000;
    const after = json(await client.callTool({ name: 'search_docs', arguments: { query: 'migrate' } })).results;
    await client.close();
    expect(before).toEqual([]);
    expect(after.map((r: { path: string }) => r.path)).toEqual(['/guide/upgrade']);
  });

  it('limits each client address', async () => {
    let status = 0;
    for (let i = 0; i < 130 && status !== 429; i++)
      status = (
        await fetch(`${app.url}/mcp/${projectId}/llms.txt`, { headers: { authorization: `Bearer ${readKey}` } })
      ).status;
    expect(status).toBe(429);
  });
});

describe('a signed read of the docs', () => {
  let app: TestApp;
  let repo: ReturnType<typeof docsRepository>;
  let directory: http.Server;
  let dir: string;
  const now = Date.parse('2026-11-21T12:00:00Z');

  beforeAll(async () => {
    repo = docsRepository();
    const key = await operatorKey();
    directory = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [key.publicJwk] }));
    });
    await new Promise<void>((resolve) => directory.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(directory.address() as AddressInfo).port}`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-mcp-signed-'));
    fs.writeFileSync(path.join(dir, 'ranges.json'), JSON.stringify({ sources: [] }));
    const sites = new DocsSites({
      now: () => now,
      source: {
        headSha: async () => repo.head(),
        files: (_project, sha) => readDocsFiles({ url: repo.dir, sha, token: 'unused' }),
      },
    });
    app = await startTestApp({
      provider: 'sqlite',
      routes: ({ analytics }) => [mcpRoutes({ analytics, sites }), analyticsBreakdownRoutes({ analytics })],
      env: { SCRIBE_AI_RANGES_FILE: path.join(dir, 'ranges.json'), SCRIBE_KEY_DIRECTORY_ALLOW: '127.0.0.1/32' },
      clock: () => new Date(now),
    });
    await app.services.analytics.importRangesAndDirectories([
      {
        name: 'directories.json',
        retrievedAt: '2026-11-20T00:00:00Z',
        text: JSON.stringify({
          directories: [
            {
              url: `${origin}/.well-known/http-message-signatures-directory`,
              operator: 'OpenAI',
              agents: ['ChatGPT-User'],
            },
          ],
        }),
      },
    ]);
    Object.assign(signing, { key, origin });
  });
  const signing = {} as { key: Awaited<ReturnType<typeof operatorKey>>; origin: string };
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => directory.close(resolve));
    fs.rmSync(repo.dir, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('verifies the Web Bot Auth signature of the request that read the page', async () => {
    const projectId = (await app.project()).id;
    const readKey = await app.key(projectId, 'read');
    const url = `${app.url}/mcp/${projectId}/pages/guide/install.md`;
    const headers = await signedHeaders({
      url,
      signer: signing.key.signer,
      signatureAgent: `"${signing.origin}"`,
      created: now - 5_000,
      expires: now + 55_000,
    });
    const chatgpt =
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';
    const read = (extra: Record<string, string>) =>
      fetch(url, { headers: { authorization: `Bearer ${readKey}`, 'user-agent': chatgpt, ...extra } });
    expect((await read(headers as Record<string, string>)).status).toBe(200);
    // a forged signature on the same read: spoofed
    const forged = {
      ...(headers as Record<string, string>),
      signature: `sig1=:${Buffer.alloc(64).toString('base64')}:`,
    };
    expect((await read(forged)).status).toBe(200);
    const agents = (await (
      await fetch(`${app.url}/v1/analytics/${projectId}/agents?dateFrom=2026-11-21&dateTo=2026-11-22`, {
        headers: { authorization: `Bearer ${readKey}` },
      })
    ).json()) as { agents: { agent: string; verifiedViews: unknown }[]; spoofed: { agent: string; views: number }[] };
    expect(agents.agents).toEqual([
      expect.objectContaining({ agent: 'ChatGPT-User', verifiedViews: { signature: 1, ipRange: 0, reverseDns: 0 } }),
    ]);
    expect(agents.spoofed).toEqual([expect.objectContaining({ agent: 'ChatGPT-User', views: 1 })]);
  });
});
