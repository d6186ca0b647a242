import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  addressAllowList,
  cacheAge,
  DIRECTORY_LIMITS,
  fetchKeyDirectory,
  publicAddress,
} from '../../../src/analytics/ingest/fetch-key-directory.js';

const KEY = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' };

describe('fetchKeyDirectory', () => {
  let server: http.Server;
  let base: string;
  const allow = addressAllowList(['127.0.0.1/32']);
  const open: http.ServerResponse[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const send = (status: number, body: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(body);
      };
      switch (req.url) {
        case '/good':
          return send(200, JSON.stringify({ keys: [KEY] }), { 'cache-control': 'public, max-age=600' });
        case '/redirect':
          return send(302, '', { location: '/good' });
        case '/missing':
          return send(404, '{}');
        case '/huge':
          res.writeHead(200, { 'content-type': 'application/json' });
          // no content-length: the cap is enforced while reading
          res.write(`{"keys":[${JSON.stringify(KEY)}],"pad":"`);
          res.end(`${'x'.repeat(DIRECTORY_LIMITS.maxBytes)}"}`);
          return;
        case '/crowded':
          return send(200, JSON.stringify({ keys: Array.from({ length: DIRECTORY_LIMITS.maxKeys + 1 }, () => KEY) }));
        case '/html':
          return send(200, '<html>not a directory</html>');
        case '/slow':
          open.push(res);
          return;
        default:
          return send(500, '');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of open) res.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads a directory and how long it may be cached', async () => {
    expect(await fetchKeyDirectory({ url: `${base}/good`, allow })).toEqual({ keys: [KEY], maxAgeMs: 600_000 });
  });

  it.each([
    ['/redirect', 'answered 302, not 200'],
    ['/missing', 'answered 404, not 200'],
    ['/huge', `answered more than ${DIRECTORY_LIMITS.maxBytes} bytes`],
    ['/crowded', `${DIRECTORY_LIMITS.maxKeys + 1} keys, more than ${DIRECTORY_LIMITS.maxKeys}`],
    ['/html', 'not JSON'],
  ])('refuses %s', async (path, message) => {
    await expect(fetchKeyDirectory({ url: `${base}${path}`, allow })).rejects.toThrow(message);
  });

  it('gives up on a directory that does not answer in time', async () => {
    await expect(fetchKeyDirectory({ url: `${base}/slow`, allow, limits: { timeoutMs: 200 } })).rejects.toThrow(
      'timed out',
    );
  });

  it('refuses a private or loopback address unless allowed, and plain http from anywhere else', async () => {
    await expect(fetchKeyDirectory({ url: `${base}/good` })).rejects.toThrow(
      'resolves to a private address (127.0.0.1)',
    );
    const localhost = base.replace('127.0.0.1', 'localhost');
    await expect(fetchKeyDirectory({ url: `${localhost}/good` })).rejects.toThrow('private address');
    await expect(fetchKeyDirectory({ url: 'ftp://127.0.0.1/x', allow })).rejects.toThrow('not an http(s) URL');
  });
});

describe('publicAddress', () => {
  it('tells public addresses from private, loopback, link-local and mapped ones', () => {
    for (const a of [
      '10.1.2.3',
      '127.0.0.1',
      '169.254.169.254',
      '192.168.1.1',
      '172.20.0.1',
      '::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      'fe80::1',
      '0.0.0.0',
    ])
      expect([a, publicAddress(a)]).toEqual([a, false]);
    for (const a of ['93.184.216.34', '2606:4700::1111']) expect([a, publicAddress(a)]).toEqual([a, true]);
    expect(publicAddress('127.0.0.1', addressAllowList(['127.0.0.1/32']))).toBe(true);
  });
});

describe('cacheAge', () => {
  it('takes max-age within the limits', () => {
    expect(cacheAge(undefined)).toBe(DIRECTORY_LIMITS.defaultAgeMs);
    expect(cacheAge('max-age=86400000')).toBe(DIRECTORY_LIMITS.maxAgeMs);
    expect(cacheAge('max-age=1')).toBe(DIRECTORY_LIMITS.minAgeMs);
    expect(cacheAge('no-store')).toBe(DIRECTORY_LIMITS.minAgeMs);
    expect(cacheAge('public, s-maxage=120, max-age=300')).toBe(300_000);
  });
});
