import type { JsonWebKey } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPrivateAddress } from '../../private-addresses.js';

/** A directory as fetched: its keys (JWKs, unchecked) and how long its answer may be cached. */
export interface FetchedDirectory {
  keys: JsonWebKey[];
  maxAgeMs: number;
}

export const DIRECTORY_LIMITS = {
  timeoutMs: 5_000,
  /** a directory holds a handful of keys: a few kilobytes */
  maxBytes: 64 * 1024,
  maxKeys: 32,
  /** Cache-Control max-age is held between these; absent, the default */
  minAgeMs: 60_000,
  maxAgeMs: 24 * 3_600_000,
  defaultAgeMs: 3_600_000,
};

/** A block list of the CIDRs given (`127.0.0.1/32,::1/128`); throws on a bad one. */
export function addressAllowList(cidrs: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const cidr of cidrs) {
    const [address, bits] = cidr.split('/');
    const type = net.isIPv6(address) ? 'ipv6' : net.isIPv4(address) ? 'ipv4' : undefined;
    if (!type) throw new Error(`${cidr} is not a CIDR`);
    list.addSubnet(address, Number(bits ?? (type === 'ipv6' ? 128 : 32)), type);
  }
  return list;
}

/** Whether Scribe may connect to `address` for a directory: not private (src/private-addresses.ts) unless `allow` lists it. */
export function publicAddress(address: string, allow?: net.BlockList): boolean {
  // an IPv4-mapped IPv6 address is the IPv4 address (a block list given ::ffff:0:0/96 would match every IPv4 one)
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return publicAddress(mapped, allow);
  if (allow?.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4')) return true;
  return !isPrivateAddress(address);
}

/**
 * Fetches a key directory as the webbotauth draft asks: one GET, a 200 answer only (a redirect is refused, never
 * followed), at most `maxBytes` and `maxKeys`, within `timeoutMs`, from a public address (see guardedGet). Throws an
 * Error saying why the directory is not usable.
 */
export async function fetchKeyDirectory(params: {
  url: string;
  allow?: net.BlockList;
  limits?: Partial<typeof DIRECTORY_LIMITS>;
}): Promise<FetchedDirectory> {
  const limits = { ...DIRECTORY_LIMITS, ...params.limits };
  const answer = await guardedGet({
    url: params.url,
    allow: params.allow,
    timeoutMs: limits.timeoutMs,
    maxBytes: limits.maxBytes,
    accept: 'application/http-message-signatures-directory+json, application/json',
  });
  if (answer.status !== 200) throw new Error(`answered ${answer.status}, not 200`);
  return { keys: parseDirectory(answer.body, limits.maxKeys), maxAgeMs: cacheAge(answer.cacheControl, limits) };
}

/**
 * One GET of a URL outside Scribe: no redirect followed (its status is the answer), at most `maxBytes` of a 200's
 * body, within `timeoutMs`, from a public address unless `allow` lists it (plain http only from an allowed one). The
 * address is checked where the socket connects (the lookup), so a name that resolves to a private address cannot
 * slip through between a check and the connection. Throws an Error saying why nothing usable came back.
 */
export function guardedGet(params: {
  url: string;
  allow?: net.BlockList;
  timeoutMs: number;
  maxBytes: number;
  accept: string;
}): Promise<{ status: number; cacheControl: string | undefined; body: string }> {
  const { allow, timeoutMs, maxBytes } = params;
  let url: URL;
  try {
    url = new URL(params.url);
  } catch {
    return Promise.reject(new Error('not a URL'));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return Promise.reject(new Error('not an http(s) URL'));
  const refusal = (addresses: { address: string; family: number }[]) => {
    const refused = addresses.find((a) => !publicAddress(a.address, allow));
    if (refused || !addresses.length) return `resolves to a private address (${refused?.address ?? 'none'})`;
    // plain text is accepted only from an allowed address (a test's or a mirror's)
    if (url.protocol === 'http:' && !addresses.every((a) => allow?.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4')))
      return 'http is accepted only from SCRIBE_KEY_DIRECTORY_ALLOW addresses';
    return undefined;
  };
  // an address in the URL is connected to without a lookup
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(literal)) {
    const refused = refusal([{ address: literal, family: net.isIP(literal) }]);
    if (refused) return Promise.reject(new Error(refused));
  }
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const refused = refusal(list);
      if (refused) return callback(new Error(refused), '', 0);
      if ((options as { all?: boolean }).all)
        (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      else callback(null, list[0].address, list[0].family);
    });
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      // no pooled socket: such fetches are rare, and a kept-alive one would outlive the fetch
      { lookup, agent: false, timeout: timeoutMs, headers: { accept: params.accept } },
      (response) => {
        const fail = (message: string) => {
          response.destroy();
          reject(new Error(message));
        };
        const status = response.statusCode ?? 0;
        const cacheControl = response.headers['cache-control'];
        if (status !== 200) {
          response.destroy();
          return resolve({ status, cacheControl, body: '' });
        }
        if (Number(response.headers['content-length'] ?? 0) > maxBytes)
          return fail(`answered more than ${maxBytes} bytes`);
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) fail(`answered more than ${maxBytes} bytes`);
          else chunks.push(chunk);
        });
        response.on('error', (err) => reject(err));
        response.on('end', () => resolve({ status, cacheControl, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    const deadline = setTimeout(() => request.destroy(new Error('timed out')), timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (err) => reject(err));
  });
}

function parseDirectory(text: string, maxKeys: number): JsonWebKey[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error('not JSON');
  }
  const keys = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('no "keys" array');
  if (keys.length > maxKeys) throw new Error(`${keys.length} keys, more than ${maxKeys}`);
  return keys.filter((k): k is JsonWebKey => typeof k === 'object' && k !== null);
}

/** How long a directory answer is fresh: its max-age within the limits (no-store and no-cache: the minimum). */
export function cacheAge(header: string | undefined, limits: typeof DIRECTORY_LIMITS = DIRECTORY_LIMITS): number {
  if (!header) return limits.defaultAgeMs;
  if (/(^|,)\s*no-(store|cache)\b/i.test(header)) return limits.minAgeMs;
  const maxAge = /(?:^|,)\s*(?:s-)?max-age\s*=\s*"?(\d+)/i.exec(header);
  if (!maxAge) return limits.defaultAgeMs;
  return Math.min(limits.maxAgeMs, Math.max(limits.minAgeMs, Number(maxAge[1]) * 1000));
}
