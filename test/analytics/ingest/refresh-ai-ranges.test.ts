import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Analytics } from '../../../src/analytics/analytics.js';
import { fetchRangeList, judgeRangeList, listFetchUrl } from '../../../src/analytics/ingest/refresh-ai-ranges.js';
import { readRangeLists } from '../../../src/analytics/store/ai-range-lists.js';
import { openSql, type Sql } from '../../../src/analytics/store/sql.js';
import { createLogger } from '../../../src/logger.js';
import { renderMetrics } from '../../../src/metrics/metrics.js';
import { createTestDatabase, PROVIDERS } from '../../support/databases.js';
import { waitFor } from '../../support/wait-for.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-11-24T12:00:00Z');

type Answer = { status?: number; type?: string; body?: string; hang?: boolean };

/** A stand-in for the operators' sites: answers by `/<host><path>`, counting requests; unknown paths are 404. */
async function operatorsStandIn(answers: Record<string, Answer>) {
  const requests: string[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const answer = answers[req.url ?? ''] ?? { status: 404, type: 'text/html', body: '<h1>Not found</h1>' };
    if (answer.hang) {
      hanging.add(res);
      return;
    }
    res.writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'application/json' });
    res.end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** `n` consecutive /28 blocks of a /24, e.g. slices('198.51.100', 16): lists as long as the snapshot's, so no shrink. */
const slices = (net24: string, n: number) => Array.from({ length: n }, (_, i) => `${net24}.${i * 16}/28`);

const published = (prefixes: string[], creationTime = '2026-11-24T08:00:00.000000') =>
  JSON.stringify({
    creationTime,
    prefixes: prefixes.map((p) => (p.includes(':') ? { ipv6Prefix: p } : { ipv4Prefix: p })),
  });

describe('judging a fetched list', () => {
  const held = ['192.0.2.0/28', '192.0.2.16/28', '192.0.2.32/28', '192.0.2.48/28'];
  it('accepts growth and a shrink to half; holds back a larger shrink until the same list is seen again', () => {
    expect(judgeRangeList({ held, pending: null, fetched: [...held, '198.51.100.0/24'] })).toEqual({ accept: true });
    expect(judgeRangeList({ held, pending: null, fetched: held.slice(0, 2) })).toEqual({ accept: true });
    const shrunk = ['203.0.113.0/24'];
    const first = judgeRangeList({ held, pending: null, fetched: shrunk });
    expect(first).toMatchObject({ accept: false, pending: shrunk });
    expect(judgeRangeList({ held, pending: shrunk, fetched: shrunk })).toEqual({ accept: true });
    // another shrunken list is a first sighting again
    expect(judgeRangeList({ held, pending: shrunk, fetched: ['198.51.100.0/24'] })).toMatchObject({
      accept: false,
      pending: ['198.51.100.0/24'],
    });
  });

  it('fetches from the override base by host and path, or from the list itself', () => {
    expect(listFetchUrl('https://claude.com/crawling/bots.json', 'http://127.0.0.1:9/m')).toBe(
      'http://127.0.0.1:9/m/claude.com/crawling/bots.json',
    );
    expect(listFetchUrl('https://claude.com/crawling/bots.json', undefined)).toBe(
      'https://claude.com/crawling/bots.json',
    );
  });

  it('a server that cannot be reached says why', async () => {
    const standIn = await operatorsStandIn({});
    const closed = standIn.url;
    await standIn.close();
    await expect(fetchRangeList({ url: `${closed}/gptbot.json`, fetch })).rejects.toThrow('unreachable (ECONNREFUSED)');
  });

  it('a server that does not answer in time is an error, not a wait', async () => {
    const standIn = await operatorsStandIn({ '/slow.json': { hang: true } });
    try {
      await expect(fetchRangeList({ url: `${standIn.url}/slow.json`, fetch, timeoutMs: 200 })).rejects.toThrow(
        'timed out',
      );
    } finally {
      await standIn.close();
    }
  });
});

describe.each(PROVIDERS)('refreshing the range lists from the operators on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: Sql;
  let standIn: Awaited<ReturnType<typeof operatorsStandIn>>;
  let now = START;
  const replicas: Analytics[] = [];

  const replica = () => {
    const analytics = new Analytics({
      target: database.target,
      secret: 'refresh-secret-refresh-secret-refresh-000',
      config: {
        saltRotation: 'never',
        trustedProxyHeader: undefined,
        cacheMb: 16,
        aiRanges: { refresh: 'daily', maxAgeDays: 30, urlOverride: standIn.url, reverseDns: false },
      },
      logger: createLogger(process.env.DBG ? 'debug' : 'silent'),
      clock: () => new Date(now),
      autoFold: false,
    });
    replicas.push(analytics);
    return analytics;
  };

  const appleShrunk = published(['17.241.0.0/16']);
  const answers: Record<string, Answer> = {};
  const INITIAL: Record<string, Answer> = {
    '/openai.com/gptbot.json': { body: published([...slices('198.51.100', 16), '2001:db8:a::/48']) },
    // Anthropic's timestamps end in Z
    '/claude.com/crawling/bots.json': {
      body: published(slices('198.51.101', 16), '2026-11-20T10:00:00Z'),
    },
    // Common Crawl adds fields of its own
    '/index.commoncrawl.org/ccbot.json': {
      body: JSON.stringify({
        creationTime: '2026-11-23T00:00:00Z',
        syncToken: '1763856000',
        prefixes: [
          { ipv4Prefix: '198.51.102.0/25', service: 'ccbot' },
          { ipv4Prefix: '198.51.102.128/25', service: 'ccbot' },
          { ipv6Prefix: '2001:db8:c::/48' },
        ],
        contact: 'info@commoncrawl.org',
      }),
    },
    '/openai.com/searchbot.json': { type: 'text/html', body: '<!doctype html><title>Just a moment…</title>' },
    '/openai.com/chatgpt-user.json': { type: 'text/plain', body: '<html><body>blocked</body></html>' },
    '/www.perplexity.com/perplexitybot.json': { body: '{"creationTime":"2026-11-24T00:00:00Z","prefixes":[]}' },
    '/www.perplexity.com/perplexity-user.json': { body: published(['198.51.103.0/33']) },
    '/search.developer.apple.com/applebot.json': { body: appleShrunk },
  };

  beforeAll(async () => {
    now = START;
    Object.assign(answers, INITIAL);
    standIn = await operatorsStandIn(answers);
    database = await createTestDatabase(provider);
    sql = openSql(database.target);
  });
  afterAll(async () => {
    for (const analytics of replicas) await analytics.close();
    replicas.length = 0;
    await sql.close();
    await database.drop();
    await standIn.close();
  });

  it('keeps only answers that pass every check, in the database, for every replica; exposes each list’s age', async () => {
    const first = replica();
    await first.startRangesRefresh();
    const ranges = first.ranges;
    expect(ranges.verify('GPTBot', '198.51.100.7', { now })).toBe('verified');
    expect(ranges.verify('GPTBot', '2001:db8:a::1', { now })).toBe('verified');
    expect(ranges.verify('GPTBot', '203.0.113.1', { now })).toBe('unverified');
    expect(ranges.verify('Claude-User', '198.51.101.9', { now })).toBe('verified');
    expect(ranges.verify('CCBot', '2001:db8:c::9', { now })).toBe('verified');
    // refused answers leave the shipped snapshot in place, too old to call anyone spoofed
    for (const agent of [
      'OAI-SearchBot',
      'ChatGPT-User',
      'PerplexityBot',
      'Perplexity-User',
      'Applebot',
      'MistralAI-User',
    ])
      expect([agent, ranges.verify(agent, '203.0.113.1', { now })]).toEqual([agent, 'unverifiable']);

    const rows = new Map((await readRangeLists(sql)).map((r) => [r.url, r]));
    expect(rows.get('https://openai.com/gptbot.json')).toMatchObject({
      prefixes: [...slices('198.51.100', 16), '2001:db8:a::/48'],
      creationTime: '2026-11-24T08:00:00.000000',
      retrievedAt: now,
      error: null,
    });
    expect(rows.get('https://claude.com/crawling/bots.json')?.creationTime).toBe('2026-11-20T10:00:00Z');
    const errors = Object.fromEntries([...rows].filter(([, r]) => r.error).map(([url, r]) => [url, r.error]));
    expect(errors).toMatchObject({
      'https://openai.com/searchbot.json': 'answered an HTML page (200), not a JSON range list',
      'https://openai.com/chatgpt-user.json': 'an HTML or XML page, not a JSON range list',
      'https://www.perplexity.com/perplexitybot.json': 'an empty "prefixes" array',
      'https://www.perplexity.com/perplexity-user.json': 'not an IP prefix: "198.51.103.0/33"',
      'https://mistral.ai/mistralai-user-ips.json': 'answered 404',
      'https://search.developer.apple.com/applebot.json': expect.stringMatching(/^shrank from 21 to 1 prefixes/),
    });
    expect(rows.get('https://search.developer.apple.com/applebot.json')).toMatchObject({
      prefixes: null,
      pending: ['17.241.0.0/16'],
    });
    // lists Amazon and Meta publish as an HTML page or not at all are never fetched
    expect(standIn.requests.some((r) => r.includes('amazon') || r.includes('ipverse'))).toBe(false);

    const metrics = (await renderMetrics()).body;
    expect(metrics).toContain(
      'scribe_ai_ranges_age_seconds{list="https://openai.com/gptbot.json",operator="OpenAI"} 0',
    );
    // 2026-08-21T11:21Z to 2026-11-24T12:00Z
    const snapshotAge = (now - Date.parse('2026-08-21T11:21:00Z')) / 1000;
    expect(metrics).toContain(
      `scribe_ai_ranges_age_seconds{list="https://openai.com/searchbot.json",operator="OpenAI"} ${snapshotAge}`,
    );
  });

  it('another replica uses the stored copies without fetching them again', async () => {
    const fetched = standIn.requests.length;
    const second = replica();
    const ranges = await second.refreshRanges();
    expect(standIn.requests.length).toBe(fetched);
    expect(ranges.verify('GPTBot', '198.51.100.7', { now })).toBe('verified');
  });

  it('retries refused lists an hour later; a shrink seen twice in a row is accepted; good copies wait a day', async () => {
    now = START + HOUR + 1000;
    standIn.requests.length = 0;
    const ranges = await replicas[0].refreshRanges();
    expect(standIn.requests).not.toContain('/openai.com/gptbot.json');
    expect(standIn.requests).toContain('/openai.com/searchbot.json');
    expect(ranges.verify('Applebot', '17.241.1.1', { now })).toBe('verified');
    expect(ranges.verify('Applebot', '17.58.0.1', { now })).toBe('unverified');
    const apple = (await readRangeLists(sql)).find((r) => r.url.includes('applebot'));
    expect(apple).toMatchObject({ prefixes: ['17.241.0.0/16'], pending: null, error: null });

    // a day later both replicas go for it at once: each list is fetched by one of them
    now = START + 25 * HOUR;
    standIn.requests.length = 0;
    await Promise.all([replicas[0].refreshRanges(), replicas[1].refreshRanges()]);
    expect(standIn.requests.filter((r) => r === '/openai.com/gptbot.json')).toHaveLength(1);
    expect(new Set(standIn.requests).size).toBe(standIn.requests.length);
  });

  it('a list no refresh could renew for longer than the maximum age stops verifying, and stops calling views spoofed', async () => {
    answers['/openai.com/gptbot.json'] = { status: 503, type: 'text/plain', body: 'unavailable' };
    now = START + 25 * HOUR + 31 * 24 * HOUR;
    const ranges = await replicas[0].refreshRanges();
    expect(ranges.verify('GPTBot', '198.51.100.7', { now })).toBe('unverifiable');
    expect(ranges.verify('GPTBot', '203.0.113.1', { now })).toBe('unverifiable');
    const gptbot = (await readRangeLists(sql)).find((r) => r.url === 'https://openai.com/gptbot.json');
    expect(gptbot).toMatchObject({ retrievedAt: START + 25 * HOUR, error: 'answered 503' });
  });

  it('a stopping process abandons a fetch under way instead of waiting for the operator', async () => {
    answers['/openai.com/gptbot.json'] = { hang: true };
    now = START + 90 * 24 * HOUR;
    const stopping = replica();
    const round = stopping.startRangesRefresh();
    standIn.requests.length = 0;
    await waitFor(() => standIn.requests.includes('/openai.com/gptbot.json'), 'the fetch of gptbot.json');
    // the fetch would time out after 15 s; closing must not wait for it
    await stopping.close();
    replicas.splice(replicas.indexOf(stopping), 1);
    await round;
    const gptbot = (await readRangeLists(sql)).find((r) => r.url === 'https://openai.com/gptbot.json');
    // left to lapse and be retried, not recorded as the operator's failure
    expect(gptbot).toMatchObject({ checkedAt: now, error: 'answered 503' });
  });
});
