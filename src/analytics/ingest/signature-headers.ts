import type { SignatureHeaders } from './verify-signature.js';

const NAMES = ['signature', 'signature-input', 'signature-agent', 'host'] as const;
/** a request header longer than this is not one a signature check reads */
const MAX_LENGTH = 8192;

/**
 * The Web Bot Auth headers of a log record's request-header map (Cloudflare Logpush's `RequestHeaders` custom
 * field, or a `requestHeaders` object), by case-insensitive name; `host` is the fallback @authority. Undefined when
 * the record carries no signature.
 */
export function signatureHeadersOf(map: unknown, host?: string): SignatureHeaders | undefined {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return undefined;
  const headers: SignatureHeaders = {};
  for (const [name, value] of Object.entries(map)) {
    const key = name.toLowerCase() as (typeof NAMES)[number];
    if (!NAMES.includes(key)) continue;
    const text = Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(', ') : value;
    if (typeof text === 'string' && text.length <= MAX_LENGTH) headers[key] = text;
  }
  if (!headers.signature) return undefined;
  if (!headers.host && host) headers.host = host;
  return headers;
}
