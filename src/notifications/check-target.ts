import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Invalid } from '../errors.js';
import { isPrivateAddress } from '../private-addresses.js';

/** Where a subscription may send: https only unless plain http is allowed, and hosts exempt from the address rule. */
export interface TargetPolicy {
  allowHttp: boolean;
  /** host names (lower case) whose private addresses are allowed: an operator's own receivers, the tests' */
  allowedHosts: readonly string[];
}

/** The URL's form: absolute, https (or http when allowed), no credentials, a host. Throws Invalid naming the problem. */
export function parseTargetUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Invalid(`url: not an absolute URL (${JSON.stringify(raw.slice(0, 200))})`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp))
    throw new Invalid(
      `url: must be https${policy.allowHttp ? ' or http' : ' (plain http only with SCRIBE_WEBHOOKS_ALLOW_HTTP=true)'}`,
    );
  if (url.username || url.password) throw new Invalid('url: must not carry credentials');
  if (!url.hostname) throw new Invalid('url: has no host');
  if (raw.length > 2000) throw new Invalid('url: longer than 2000 characters');
  return url;
}

/**
 * Resolves the URL's host and returns the address to connect to, refusing private and metadata addresses unless the
 * host is allowed. Called when a subscription is made and again before every delivery: a name that resolved to a
 * public address yesterday may resolve to 127.0.0.1 today (DNS rebinding), so the connection goes to the address
 * checked here, never to a second lookup.
 */
export async function resolveTarget(
  url: URL,
  policy: TargetPolicy,
  resolve: (host: string) => Promise<{ address: string; family: number }[]> = (host) =>
    lookup(host, { all: true, verbatim: true }),
): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const literal = isIP(host);
  let addresses: { address: string; family: number }[];
  try {
    addresses = literal ? [{ address: host, family: literal }] : await resolve(host);
  } catch (err) {
    throw new Invalid(`url: ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'lookup failed'})`);
  }
  if (!addresses.length) throw new Invalid(`url: ${host} does not resolve`);
  if (policy.allowedHosts.includes(host)) return addresses[0];
  // every address must be public: a name with one private address among public ones could be steered to it
  const refused = addresses.find((a) => isPrivateAddress(a.address));
  if (refused)
    throw new Invalid(
      `url: ${host} resolves to ${refused.address}, a private, loopback, link-local or metadata address (allow the host with SCRIBE_WEBHOOKS_ALLOWED_HOSTS)`,
    );
  return addresses[0];
}
