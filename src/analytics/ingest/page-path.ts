import { unstorableText } from '../../db/storable-text.js';

const STATIC_ASSET =
  /\.(css|js|mjs|cjs|map|json|xml|png|jpe?g|gif|svg|ico|webp|avif|bmp|tiff?|woff2?|ttf|otf|eot|mp[34]|webm|ogg|wav|wasm|pdf|zip|gz)$/i;
const NOT_PAGES = new Set(['/robots.txt', '/favicon.ico', '/sitemap.xml', '/ads.txt', '/humans.txt']);
/**
 * In UTF-8 bytes, not characters: a path is a key of a PostgreSQL btree index, whose entries fail above ~2,700 bytes,
 * and 1,024 characters of CJK text are 3,072 bytes. A URL's path is percent-encoded ASCII, so only raw paths differ.
 */
export const MAX_PATH_BYTES = 1024;
const MARKDOWN_PAGE = /\.md$/i;
const LLMS_TXT = /\/llms(?:-full)?\.txt$/i;

/**
 * The page path of a URL or path: query and fragment dropped, a trailing slash removed (but "/" kept), and a raw
 * Markdown variant read as its page (`/guide/intro.md` is `/guide/intro`, so a page's row counts everyone who read
 * it in either form). Returns undefined for static assets (images, css, js, fonts, …), well-known non-pages and
 * anything that is not a path. `llms.txt` and `llms-full.txt` are pages of their own.
 */
export function pagePath(urlOrPath: string): string | undefined {
  let path = requestPath(urlOrPath);
  if (path === undefined || STATIC_ASSET.test(path) || NOT_PAGES.has(path.toLowerCase()) || path.startsWith('/_next/'))
    return undefined;
  if (MARKDOWN_PAGE.test(path)) path = path.slice(0, -'.md'.length).replace(/\/+$/, '') || '/';
  return path;
}

/**
 * Whether a URL or path asks for raw Markdown — a page's `.md` variant, `llms.txt` or `llms-full.txt` (in any
 * folder) — which is what AI agents read and browsers do not.
 */
export function isRawMarkdown(urlOrPath: string): boolean {
  const path = requestPath(urlOrPath);
  return path !== undefined && (MARKDOWN_PAGE.test(path) || LLMS_TXT.test(path));
}

/**
 * The path of a URL or path without query, fragment or trailing slash; undefined when it is not a path (controls,
 * whitespace, or an unpaired surrogate a raw path could carry: a URL's own path is percent-encoded).
 */
function requestPath(urlOrPath: string): string | undefined {
  let path = urlOrPath.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return undefined;
    }
  }
  path = path.replace(/[?#].*$/s, '');
  if (
    !path.startsWith('/') ||
    Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES ||
    /[\s\x00-\x1f\x7f]/.test(path) ||
    unstorableText(path) !== undefined
  )
    return undefined;
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}

/** Hostname of a URL, lower-cased; undefined when it is not an http(s) URL. */
export function urlHostname(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}
