/**
 * Whether a browser submission comes from one of a project's sites: the page URL's hostname (or host with port) is
 * one of the project's hostnames, and so is the request's Origin when the browser sent one (an opaque "null" origin
 * is let through: sandboxed frames and some privacy modes send it).
 */
export function fromProjectSite(hostnames: string[], url: string | undefined, origin: string | undefined): boolean {
  if (!matches(hostnames, url)) return false;
  return !origin || origin === 'null' || matches(hostnames, origin);
}

function matches(hostnames: string[], url: string | undefined): boolean {
  if (!url) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const names = new Set([parsed.hostname.toLowerCase(), parsed.host.toLowerCase()]);
  return hostnames.some((h) => names.has(h));
}
