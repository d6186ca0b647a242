import { importLogs } from '../../../src/analytics/ingest/import-logs.js';
import type { PageView } from '../../../src/analytics/ingest/prepare-event.js';
import { detectFormat, parseLogLine, unescapeField } from '../../../src/analytics/ingest/log-formats.js';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const line = (i: number) =>
  `203.0.113.${i % 250} - - [20/Nov/2026:10:00:00 +0000] "GET /p${i} HTTP/1.1" 200 1 "-" "${UA}"`;

async function* chunked(text: string, size: number) {
  for (let i = 0; i < text.length; i += size) yield Buffer.from(text.slice(i, i + size));
}

describe('importLogs', () => {
  it('streams lines across chunk boundaries in batches, never holding the whole input', async () => {
    const text = Array.from({ length: 12_345 }, (_, i) => line(i)).join('\r\n');
    const batches: number[] = [];
    const seen = new Set<string>();
    const summary = await importLogs({
      input: chunked(text, 333),
      format: 'auto',
      lineKey: (l) => l,
      ingest: async (views: PageView[]) => {
        batches.push(views.length);
        for (const v of views) seen.add(v.url);
        return { accepted: views.length, duplicates: 0, rejected: [] };
      },
    });
    expect(summary).toMatchObject({ format: 'combined', lines: 12_345, accepted: 12_345, skipped: {} });
    expect(batches).toEqual([5000, 5000, 2345]);
    expect(seen.size).toBe(12_345);
  });

  it('decodes multi-byte characters cut by any read-chunk boundary, so a line reads (and is keyed) the same in every chunking', async () => {
    // 2-, 3- and 4-byte characters: every chunk size below cuts some of them, 7 and 1000 cut the user agent
    const unicode = (i: number) =>
      `203.0.113.${i} - - [20/Nov/2026:10:00:0${i} +0000] "GET /p${i} HTTP/1.1" 200 1 "-" "${UA} Ünïcødé/€€€ 日本語 𝄞"`;
    const text = [1, 2, 3, 4].map(unicode).join('\n');
    const bytes = Buffer.from(text);
    for (const size of [1, 2, 3, 5, 7, 11, 1000]) {
      const keys: string[] = [];
      const summary = await importLogs({
        input: (async function* () {
          for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
        })(),
        format: 'combined',
        lineKey: (l) => l,
        ingest: async (views) => {
          keys.push(...views.map((v) => `${v.key} | ${v.userAgent}`));
          return { accepted: views.length, duplicates: 0, rejected: [] };
        },
      });
      expect({ size, accepted: summary.accepted, keys }).toEqual({
        size,
        accepted: 4,
        keys: [1, 2, 3, 4].map((i) => `${unicode(i)} | ${UA} Ünïcødé/€€€ 日本語 𝄞`),
      });
    }
  });

  it('numbers identical lines within one import, across batches and read chunks, the same on every import', async () => {
    // the three copies straddle the first batch of 5,000 views
    const copy = `198.51.100.1 - - [20/Nov/2026:10:00:00 +0000] "GET /same HTTP/1.1" 200 1 "-" "${UA}"`;
    const text = [...Array.from({ length: 4999 }, (_, i) => line(i)), copy, copy, copy, line(1)].join('\n');
    const keysOf = async (chunk: number) => {
      const keys: string[] = [];
      const summary = await importLogs({
        input: chunked(text, chunk),
        format: 'combined',
        lineKey: (l) => l,
        ingest: async (views) => {
          keys.push(...views.map((v) => v.key!));
          return { accepted: views.length, duplicates: 0, rejected: [] };
        },
      });
      expect(summary.accepted).toBe(5003);
      return keys;
    };
    const keys = await keysOf(4096);
    expect(keys.slice(4999)).toEqual([copy, `${copy}\n2`, `${copy}\n3`, `${line(1)}\n2`]);
    expect(new Set(keys).size).toBe(5003);
    expect(await keysOf(333)).toEqual(keys);
  });

  it('skips over-long lines without buffering them', async () => {
    const huge = 'x'.repeat(200_000);
    const summary = await importLogs({
      input: chunked(`${line(1)}\n${huge}\n${line(2)}\n`, 4096),
      format: 'combined',
      lineKey: (l) => l,
      ingest: async (views) => ({ accepted: views.length, duplicates: 0, rejected: [] }),
    });
    expect(summary).toMatchObject({
      lines: 3,
      accepted: 2,
      errors: [{ line: 2, error: 'line longer than 65536 bytes' }],
    });
  });

  it('reports lines of an unknown format until one is recognised', async () => {
    const summary = await importLogs({
      input: chunked(`garbage\n${line(1)}\n`, 100),
      format: 'auto',
      lineKey: (l) => l,
      ingest: async (views) => ({ accepted: views.length, duplicates: 0, rejected: [] }),
    });
    expect(summary.accepted).toBe(1);
    expect(summary.errors[0]).toMatchObject({ line: 1, error: expect.stringMatching(/^unrecognised log format/) });
  });
});

describe('log formats', () => {
  it('reads combined lines with time zones and escaped quotes', () => {
    const parsed = parseLogLine(
      '198.51.100.7 - frank [20/Nov/2026:11:00:00 +0100] "GET /a?b=1 HTTP/2.0" 304 - "https://chatgpt.com/" "Agent \\"x\\""',
      'combined',
    );
    expect(parsed).toEqual({
      view: {
        timestamp: Date.UTC(2026, 10, 20, 10),
        url: '/a?b=1',
        userAgent: 'Agent "x"',
        ip: '198.51.100.7',
        referrer: 'https://chatgpt.com/',
      },
    });
  });

  it('reads a UTF-8 path nginx logged byte by byte as \\xHH escapes as UTF-8, not as one character per byte', () => {
    const parsed = parseLogLine(
      '198.51.100.7 - - [20/Nov/2026:11:00:00 +0000] "GET /docs/\\xC3\\xBCber/\\xE6\\x97\\xA5\\xF0\\x9F\\x9A\\x80 HTTP/1.1" 200 5 "-" "Agent \\xE2\\x9C\\x93"',
      'combined',
    );
    expect(parsed).toMatchObject({ view: { url: '/docs/über/日🚀', userAgent: 'Agent ✓' } });
    // raw UTF-8 (Caddy, or nginx with escape=none) is left as it is; bytes that are not UTF-8 read as U+FFFD
    expect(unescapeField('/docs/ünï')).toBe('/docs/ünï');
    expect(unescapeField('/a\\xFF\\xC3b')).toBe('/a\uFFFD\uFFFDb');
    expect(unescapeField('trailing \\')).toBe('trailing \\');
  });

  it('reads every Cloudflare timestamp format', () => {
    const at = Date.UTC(2026, 10, 20, 10);
    const record = (ts: unknown) =>
      JSON.stringify({
        ClientIP: '1.1.1.1',
        ClientRequestMethod: 'GET',
        ClientRequestURI: '/x',
        EdgeResponseStatus: 200,
        EdgeStartTimestamp: ts,
      });
    for (const ts of ['2026-11-20T10:00:00Z', at / 1000, at, at * 1_000_000]) {
      expect(parseLogLine(record(ts), 'cloudflare')).toMatchObject({ view: { timestamp: at } });
    }
    expect(parseLogLine(record('nope'), 'cloudflare')).toEqual({ error: 'no usable timestamp' });
  });

  it('detects formats from a line', () => {
    expect(detectFormat(line(1))).toBe('combined');
    expect(detectFormat('{"ClientRequestURI":"/"}')).toBe('cloudflare');
    expect(detectFormat('{"proxy":{},"source":"static"}')).toBe('vercel');
    expect(detectFormat('{"msg":"hello"}')).toBeUndefined();
    expect(detectFormat('hello')).toBeUndefined();
  });
});
