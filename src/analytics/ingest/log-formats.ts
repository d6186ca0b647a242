import type { PageView } from './prepare-event.js';
import { civilToEpochMs, parseIsoDateTime } from '../../calendar.js';
import { signatureHeadersOf } from './signature-headers.js';
import type { SignatureHeaders } from './verify-signature.js';

/** The formats a log import reads; `auto` detects one of the others from the first readable line. */
export const LOG_FORMATS = ['auto', 'combined', 'cloudflare', 'vercel'] as const;
export type LogFormat = Exclude<(typeof LOG_FORMATS)[number], 'auto'>;

/** A log line is a page view, a request that does not count (with why), or malformed (with what is wrong). */
/**
 * A line is a page view, skipped (with a reason) or malformed. A GET answered 404, 410 or 5xx is skipped as a page
 * view but also carried as `missed`: what a client asked for and did not get (the AI ones are kept, see record-ai-misses.ts).
 */
export type ParsedLine =
  | { view: PageView }
  | { skip: string; missed?: { view: PageView; status: number } }
  | { error: string };

/** Statuses that mean the page was not served: gone, missing, or the server failed. */
export function isMissStatus(status: number): boolean {
  return status === 404 || status === 410 || (status >= 500 && status < 600);
}

// %h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i" — nginx's default and Apache's "combined"
const COMBINED =
  /^(\S+) \S+ \S+ \[([^\]]+)\] "((?:[^"\\]|\\.)*)" (\d{3}) (?:\d+|-) "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)"/;
const CLF_TIME = /^(\d{2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Guesses the format from one non-empty line. */
export function detectFormat(line: string): LogFormat | undefined {
  const text = line.trim();
  if (text.startsWith('{')) {
    try {
      const record = JSON.parse(text) as Record<string, unknown>;
      if ('ClientRequestURI' in record || 'EdgeStartTimestamp' in record || 'ClientIP' in record) return 'cloudflare';
      if ('proxy' in record || ('deploymentId' in record && 'source' in record)) return 'vercel';
    } catch {
      return undefined;
    }
    return undefined;
  }
  return COMBINED.test(text) ? 'combined' : undefined;
}

export function parseLogLine(line: string, format: LogFormat): ParsedLine {
  if (format === 'combined') return parseCombined(line);
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return { error: 'not valid JSON' };
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return { error: 'not a JSON object' };
  return format === 'cloudflare'
    ? parseCloudflare(record as Record<string, unknown>)
    : parseVercel(record as Record<string, unknown>);
}

const UTF8 = new TextDecoder('utf-8');

/**
 * A quoted field of a combined log line as the server meant it. nginx and Apache write each byte outside printable
 * ASCII as `\xHH`, so a UTF-8 path arrives as one escape per byte: the bytes are gathered and read as UTF-8 (a byte
 * sequence that is not UTF-8 reads as U+FFFD), never as one Latin-1 character per byte. `\"` and `\\` are the
 * character after the backslash.
 */
export function unescapeField(text: string): string {
  if (!text.includes('\\')) return text;
  const bytes: Buffer[] = [];
  for (const [, hex, escaped, plain] of text.matchAll(/\\x([0-9a-fA-F]{2})|\\([\s\S])|([^\\]+|\\)/gu)) {
    if (hex !== undefined) bytes.push(Buffer.from([parseInt(hex, 16)]));
    else bytes.push(Buffer.from(escaped ?? plain, 'utf8'));
  }
  return UTF8.decode(Buffer.concat(bytes));
}

function parseCombined(line: string): ParsedLine {
  const m = COMBINED.exec(line);
  if (!m) return { error: 'not a combined log line' };
  const [, ip, time, request, status, referrer, userAgent] = m;
  const timestamp = clfTime(time);
  if (timestamp === undefined) return { error: `unreadable time ${JSON.stringify(time)}` };
  const [method, target] = unescapeField(request).split(' ');
  return request_({
    method,
    target,
    status: Number(status),
    timestamp,
    ip,
    userAgent: unescapeField(userAgent),
    referrer: unescapeField(referrer),
  });
}

/** `20/Nov/2026:10:00:00 +0100` → epoch ms; undefined unless every field is in range (no 31 February). */
function clfTime(time: string): number | undefined {
  const t = CLF_TIME.exec(time);
  const month = t ? MONTHS.indexOf(t[2]) + 1 : 0;
  if (!t || !month || Number(t[9]) > 59) return undefined;
  const offsetMinutes = (t[7] === '-' ? -1 : 1) * (Number(t[8]) * 60 + Number(t[9]));
  return civilToEpochMs({ year: +t[3], month, day: +t[1], hour: +t[4], minute: +t[5], second: +t[6], offsetMinutes });
}

/** The rules every format shares: successful GETs of pages only. */
function request_(r: {
  method: string | undefined;
  target: string | undefined;
  status: number;
  timestamp: number;
  ip?: string;
  userAgent?: string;
  referrer?: string;
  headers?: SignatureHeaders;
}): ParsedLine {
  if (!r.method || !r.target) return { error: 'no request method and path' };
  if (r.method.toUpperCase() !== 'GET') return { skip: `method ${r.method.toUpperCase()}` };
  const view = () => ({
    timestamp: r.timestamp,
    url: r.target!,
    userAgent: r.userAgent,
    ip: r.ip || undefined,
    referrer: r.referrer && r.referrer !== '-' ? r.referrer : null,
    ...(r.headers && { headers: r.headers }),
  });
  if (!(r.status >= 200 && r.status < 400)) {
    const skip = `status ${r.status}`;
    return isMissStatus(r.status) && Number.isFinite(r.timestamp)
      ? { skip, missed: { view: view(), status: r.status } }
      : { skip };
  }
  if (!Number.isFinite(r.timestamp)) return { error: 'no usable timestamp' };
  return { view: view() };
}

/** Logpush timestamps are RFC 3339 text or Unix seconds, milliseconds or nanoseconds, depending on the job. */
function cloudflareTime(value: unknown): number {
  if (typeof value === 'string' && !/^\d+$/.test(value)) return parseIsoDateTime(value) ?? NaN;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) return NaN;
  if (n > 1e17) return Math.floor(n / 1e6);
  if (n > 1e14) return Math.floor(n / 1e3);
  if (n > 1e11) return n;
  return n * 1000;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function parseCloudflare(r: Record<string, unknown>): ParsedLine {
  const uri = text(r.ClientRequestURI) ?? text(r.ClientRequestPath);
  if (!uri) return { error: 'no ClientRequestURI' };
  return request_({
    method: text(r.ClientRequestMethod),
    target: uri,
    status: Number(r.EdgeResponseStatus ?? r.OriginResponseStatus),
    timestamp: cloudflareTime(r.EdgeStartTimestamp ?? r.EdgeEndTimestamp),
    ip: text(r.ClientIP),
    userAgent: text(r.ClientRequestUserAgent),
    referrer: text(r.ClientRequestReferer),
    headers: signatureHeadersOf(r.RequestHeaders, text(r.ClientRequestHost)),
  });
}

function parseVercel(r: Record<string, unknown>): ParsedLine {
  const proxy = r.proxy;
  if (typeof proxy !== 'object' || proxy === null) return { skip: 'not a request (no proxy record)' };
  const p = proxy as Record<string, unknown>;
  const userAgent = Array.isArray(p.userAgent) ? text(p.userAgent[0]) : text(p.userAgent);
  return request_({
    method: text(p.method),
    target: text(p.path),
    status: Number(p.statusCode ?? r.statusCode),
    timestamp: Number(p.timestamp ?? r.timestamp),
    ip: text(p.clientIp),
    userAgent,
    referrer: text(p.referer),
    headers: signatureHeadersOf(p.requestHeaders ?? r.requestHeaders, text(p.host) ?? text(r.host)),
  });
}
