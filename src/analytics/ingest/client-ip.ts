import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * The client address of a request: the socket's peer, unless a trusted reverse proxy header is configured. For a
 * list header (X-Forwarded-For) the right-most entry is used — the one the trusted proxy appended; entries further
 * left are whatever the client claimed. Returns undefined when there is no usable address. Read from the raw
 * headers, so it serves Express routes and hot routes (which answer before Express sets the request up) alike.
 */
export function clientIp(req: IncomingMessage, trustedProxyHeader: string | undefined): string | undefined {
  if (trustedProxyHeader) {
    const value = req.headers[trustedProxyHeader.toLowerCase()];
    return lastForwarded(typeof value === 'string' ? value : undefined);
  }
  return normalizeIp(req.socket.remoteAddress);
}

function lastForwarded(value: string | undefined): string | undefined {
  return normalizeIp(
    value
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .pop(),
  );
}

/** Canonical text of an address ("::ffff:1.2.3.4" → "1.2.3.4", IPv6 lower-cased), or undefined if not an IP. */
export function normalizeIp(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  let ip = value.trim();
  if (ip.startsWith('[') && ip.includes(']')) ip = ip.slice(1, ip.indexOf(']'));
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(ip)) ip = ip.slice(0, ip.indexOf(':'));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) ip = mapped[1];
  if (!isIP(ip)) return undefined;
  return ip.toLowerCase();
}
