import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Analytics } from '../../../src/analytics/analytics.js';
import type { DnsResolver } from '../../../src/analytics/ingest/reverse-dns.js';
import type { RangesSource } from '../../../src/analytics/ingest/verify-agent.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { createLogger } from '../../../src/logger.js';
import { createTestDatabase, PROVIDERS } from '../../support/databases.js';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const ua = (name: string) => `Mozilla/5.0 (compatible; ${name}/1.0; +https://example.com/bot)`;
const HUMAN = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

// documentation addresses (RFC 5737) standing in for the operators' lists
const SOURCES: RangesSource[] = [
  {
    url: 'https://openai.com/gptbot.json',
    operator: 'OpenAI',
    agents: ['GPTBot'],
    creationTime: null,
    retrievedAt: '2026-11-23T00:00:00Z',
    prefixes: ['192.0.2.0/24'],
  },
  {
    url: 'https://index.commoncrawl.org/ccbot.json',
    operator: 'Common Crawl',
    agents: ['CCBot'],
    rdnsPatterns: ['*.crawl.commoncrawl.org'],
    creationTime: null,
    retrievedAt: '2026-11-23T00:00:00Z',
    prefixes: ['192.0.2.0/24'],
  },
  {
    // stale: only reverse DNS can verify Applebot, and nothing can call it spoofed
    url: 'https://search.developer.apple.com/applebot.json',
    operator: 'Apple',
    agents: ['Applebot'],
    rdnsPatterns: ['*.applebot.apple.com'],
    creationTime: null,
    retrievedAt: '2026-08-21T00:00:00Z',
    prefixes: ['192.0.2.0/24'],
  },
];

/** A DNS stand-in: PTR and A records by name; `hold` makes lookups of an address wait until released. */
function dnsStandIn(records: { ptr: Record<string, string[]>; a: Record<string, string[]> }) {
  const gates = new Map<string, { opened: Promise<void>; open: () => void }>();
  const gate = (ip: string) => {
    let entry = gates.get(ip);
    if (!entry) {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      gates.set(ip, (entry = { opened, open }));
    }
    return entry;
  };
  const asked: string[] = [];
  const resolver: DnsResolver = {
    reverse: async (ip) => {
      asked.push(ip);
      // 198.51.100.2x answer only once released
      if (ip.startsWith('198.51.100.2')) await gate(ip).opened;
      const names = records.ptr[ip];
      if (!names) throw Object.assign(new Error('queryPtr ENOTFOUND'), { code: 'ENOTFOUND' });
      return names;
    },
    resolve4: async (host) => records.a[host] ?? [],
    resolve6: async () => [],
  };
  return { resolver, asked, release: (ip: string) => gate(ip).open() };
}

describe.each(PROVIDERS)('what is stored of an AI view on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let analytics: Analytics;
  let sql: Sql;
  let dir: string;
  const dns = dnsStandIn({
    ptr: {
      '198.51.100.1': ['crawl-198-51-100-1.applebot.apple.com.'],
      '198.51.100.2': ['spoof.applebot.apple.com'],
      '198.51.100.3': ['ccbot-3.crawl.commoncrawl.org'],
      '198.51.100.20': ['crawl-20.crawl.commoncrawl.org'],
    },
    a: {
      'crawl-198-51-100-1.applebot.apple.com': ['198.51.100.1'],
      // a PTR record anyone can write: its name does not lead back to the address
      'spoof.applebot.apple.com': ['17.0.0.1'],
      'ccbot-3.crawl.commoncrawl.org': ['198.51.100.3'],
      'crawl-20.crawl.commoncrawl.org': ['198.51.100.20'],
    },
  });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-ranges-'));
    const file = path.join(dir, 'ranges.json');
    fs.writeFileSync(file, JSON.stringify({ sources: SOURCES }));
    database = await createTestDatabase(provider);
    analytics = new Analytics({
      target: database.target,
      secret: 'verification-secret-verification-secret-0',
      config: {
        saltRotation: 'never',
        trustedProxyHeader: undefined,
        cacheMb: 16,
        aiRangesFile: file,
        aiRanges: { refresh: 'off', maxAgeDays: 30, urlOverride: undefined, reverseDns: true },
      },
      logger: createLogger('silent'),
      clock: () => new Date(NOW),
      autoFold: false,
      resolver: dns.resolver,
    });
    sql = openSql(database.target);
  });
  afterAll(async () => {
    await analytics.close();
    await sql.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = (projectId: string) =>
    sql.query<{
      path: string;
      kind: number;
      agent: string | null;
      visitorId: number | null;
      verification: number | null;
    }>(
      `SELECT p."path" AS "path", e."kind" AS "kind", e."agent" AS "agent", e."visitorId" AS "visitorId",
              e."verification" AS "verification"
         FROM "AnalyticsEvent" e JOIN "AnalyticsPage" p ON p."id" = e."pageId"
        WHERE e."projectId" = ? ORDER BY e."id"`,
      [projectId],
    );

  it('keeps the outcome in the verification column; a spoofed view is a bot with the visitor it claimed', async () => {
    const timestamp = NOW - 3_600_000;
    const result = await analytics.ingest('prj_v', [
      { timestamp, url: '/in', userAgent: ua('GPTBot'), ip: '192.0.2.10' },
      { timestamp, url: '/spoof', userAgent: ua('GPTBot'), ip: '203.0.113.5' },
      { timestamp, url: '/spoof', userAgent: ua('GPTBot'), ip: '203.0.113.5' },
      { timestamp, url: '/spoof', userAgent: ua('GPTBot'), ip: '203.0.113.6' },
      { timestamp, url: '/nolist', userAgent: ua('ClaudeBot'), ip: '203.0.113.7' },
      { timestamp, url: '/given', userAgent: ua('GPTBot'), visitorId: 'v1' },
      { timestamp, url: '/fcrdns', userAgent: ua('Applebot'), ip: '198.51.100.1' },
      { timestamp, url: '/stale', userAgent: ua('Applebot'), ip: '203.0.113.8' },
      { timestamp, url: '/fcrdns', userAgent: ua('CCBot'), ip: '198.51.100.3' },
      { timestamp, url: '/spoof', userAgent: ua('CCBot'), ip: '203.0.113.9' },
      { timestamp, url: '/human', userAgent: HUMAN, ip: '203.0.113.10' },
      { timestamp, url: '/bot', userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)', ip: '203.0.113.11' },
    ]);
    expect(result).toMatchObject({ accepted: 12, rejected: [] });
    const rows = await stored('prj_v');
    const shape = rows.map((r) => [
      r.path,
      Number(r.kind),
      r.agent,
      r.visitorId === null ? null : 'id',
      r.verification,
    ]);
    expect(shape).toEqual([
      ['/in', 2, 'GPTBot', 'id', 1],
      ['/spoof', 0, 'unverified GPTBot', 'id', null],
      ['/spoof', 0, 'unverified GPTBot', 'id', null],
      ['/spoof', 0, 'unverified GPTBot', 'id', null],
      ['/nolist', 2, 'ClaudeBot', 'id', 2],
      ['/given', 2, 'GPTBot', 'id', 2],
      ['/fcrdns', 2, 'Applebot', 'id', 3],
      ['/stale', 2, 'Applebot', 'id', 2],
      ['/fcrdns', 2, 'CCBot', 'id', 3],
      ['/spoof', 0, 'unverified CCBot', 'id', null],
      ['/human', 1, null, 'id', null],
      ['/bot', 0, 'Mozilla/5.0 (compatible; Googlebot/2.1)', null, null],
    ]);
    // the same address and agent is one spoofed visitor; another address another
    expect(rows[1].visitorId).toBe(rows[2].visitorId);
    expect(rows[3].visitorId).not.toBe(rows[1].visitorId);
    // spoofed visitors count in no export: the day sets hold humans and verified or unverifiable AI only
    const visitors = await analytics.visitors('prj_v', { from: NOW - 86_400_000, to: NOW }, { limit: 50, offset: 0 });
    expect(visitors.totals).toEqual({ human: 1, ai: 6, total: 7 });
  });

  it('a PTR name that does not lead back to the address confirms nothing; lists are checked before DNS is asked', async () => {
    dns.asked.length = 0;
    const timestamp = NOW - 3_600_000;
    const pending = analytics.ingest('prj_w', [
      { timestamp, url: '/a', userAgent: ua('Applebot'), ip: '198.51.100.2' },
      { timestamp, url: '/b', userAgent: ua('CCBot'), ip: '192.0.2.50' },
      { timestamp, url: '/c', userAgent: ua('GPTBot'), ip: '203.0.113.77' },
    ]);
    dns.release('198.51.100.2');
    expect((await pending).accepted).toBe(3);
    // CCBot inside its fresh list and GPTBot (no names documented) need no lookup
    expect(dns.asked).toEqual(['198.51.100.2']);
    expect((await stored('prj_w')).map((r) => [r.agent, r.verification])).toEqual([
      ['Applebot', 2],
      ['CCBot', 1],
      ['unverified GPTBot', null],
    ]);
  });

  it("the tracker's path never waits on DNS: it decides with what is cached and the lookup warms the cache", async () => {
    const timestamp = NOW - 3_600_000;
    const view = { timestamp, url: '/t', userAgent: ua('CCBot'), ip: '198.51.100.20' };
    // 198.51.100.2x answers only when released: an ingest that waited would never return
    const first = await analytics.ingest('prj_t', [view], { dnsWaitMs: 0 });
    expect(first.accepted).toBe(1);
    dns.release('198.51.100.20');
    await new Promise((resolve) => setImmediate(resolve));
    await analytics.ingest('prj_t', [view], { dnsWaitMs: 0 });
    expect((await stored('prj_t')).map((r) => [r.agent, r.verification])).toEqual([
      ['unverified CCBot', null],
      ['CCBot', 3],
    ]);
  });

  it('a batch that may wait gives up on DNS after its budget and decides without it', async () => {
    const timestamp = NOW - 3_600_000;
    const result = await analytics.ingest(
      'prj_b',
      [{ timestamp, url: '/slow', userAgent: ua('CCBot'), ip: '198.51.100.21' }],
      { dnsWaitMs: 50 },
    );
    expect(result.accepted).toBe(1);
    expect((await stored('prj_b')).map((r) => [r.agent, r.verification])).toEqual([['unverified CCBot', null]]);
    dns.release('198.51.100.21');
  });
});
