import net from 'node:net';

/** One list as an operator publishes it: its own date (null when it states none) and its prefixes. */
export interface PublishedList {
  creationTime: string | null;
  prefixes: string[];
}

/** One service of the ipverse/bot-ip-blocks snapshot (`crawlers.json`), as far as Scribe reads it. */
export interface SnapshotService {
  name: string;
  sourceUrl: string;
  lastChangedAt: string | null;
  userAgentPatterns: string[];
  rdnsPatterns: string[];
  authoritative: boolean;
  prefixes: string[];
}

/** Throws unless `prefix` is an IPv4 or IPv6 address with a prefix length in range (`192.0.2.0/24`, `2001:db8::/32`). */
export function checkPrefix(prefix: unknown): string {
  const [address, bits, extra] = typeof prefix === 'string' ? prefix.split('/') : [];
  const max = net.isIPv4(address ?? '') ? 32 : net.isIPv6(address ?? '') ? 128 : -1;
  if (max < 0 || extra !== undefined || !/^\d{1,3}$/.test(bits ?? '') || Number(bits) > max)
    throw new Error(`not an IP prefix: ${JSON.stringify(prefix)?.slice(0, 100)}`);
  return prefix as string;
}

/**
 * The operators' common format `{"creationTime", "prefixes": [{"ipv4Prefix"} | {"ipv6Prefix"}]}` (OpenAI, Google,
 * Apple, Bing, Perplexity, Common Crawl, DuckDuckGo, Mistral, Anthropic). Fields beside these (Common Crawl adds
 * some) are ignored; an HTML page, an empty list or a malformed prefix is an error.
 */
export function parsePublishedRanges(text: string): PublishedList {
  if (/^\s*</.test(text)) throw new Error('an HTML or XML page, not a JSON range list');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('not JSON');
  }
  const list = parsed as { creationTime?: unknown; prefixes?: unknown };
  if (typeof list !== 'object' || list === null || !Array.isArray(list.prefixes))
    throw new Error('no "prefixes" array');
  if (!list.prefixes.length) throw new Error('an empty "prefixes" array');
  const prefixes = list.prefixes.map((p: { ipv4Prefix?: unknown; ipv6Prefix?: unknown } | null) =>
    checkPrefix(p?.ipv4Prefix ?? p?.ipv6Prefix),
  );
  const creationTime = typeof list.creationTime === 'string' ? list.creationTime : null;
  return { creationTime, prefixes: [...new Set(prefixes)] };
}

/** The services of an ipverse/bot-ip-blocks `crawlers.json`, every prefix checked. */
export function parseSnapshot(text: string): SnapshotService[] {
  const parsed = JSON.parse(text) as { services?: Record<string, Record<string, unknown>> };
  if (typeof parsed?.services !== 'object' || parsed.services === null) throw new Error('no "services" object');
  return Object.entries(parsed.services).map(([name, s]) => {
    const strings = (field: string): string[] => {
      const value = s[field] ?? [];
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
        throw new Error(`${name}: "${field}" is not a list of strings`);
      return value as string[];
    };
    return {
      name,
      sourceUrl: String(s.source_url ?? ''),
      lastChangedAt: typeof s.last_changed_at === 'string' ? s.last_changed_at : null,
      userAgentPatterns: strings('user_agent_patterns'),
      rdnsPatterns: strings('rdns_patterns'),
      authoritative: s.ip_list_authoritative !== false,
      prefixes: [...strings('ipv4'), ...strings('ipv6')].map(checkPrefix),
    };
  });
}

/** Whether `text` is a snapshot (`{"services": …}`) rather than one operator's list. */
export function isSnapshot(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { services?: unknown };
    return typeof parsed?.services === 'object' && parsed.services !== null;
  } catch {
    return false;
  }
}

/** Whether `name` matches a glob of the snapshot (`*` any run of characters), ignoring case. */
export function matchesGlob(name: string, glob: string): boolean {
  const pattern = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`, 'i').test(name);
}
