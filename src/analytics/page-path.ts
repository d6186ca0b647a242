const STATIC_ASSET =
  /\.(css|js|mjs|cjs|map|json|xml|png|jpe?g|gif|svg|ico|webp|avif|bmp|tiff?|woff2?|ttf|otf|eot|mp[34]|webm|ogg|wav|wasm|pdf|zip|gz)$/i;
const NOT_PAGES = new Set(['/robots.txt', '/favicon.ico', '/sitemap.xml', '/ads.txt', '/humans.txt']);
export const MAX_PATH_LENGTH = 1024;

/**
 * The page path of a URL or path: query and fragment dropped, a trailing slash removed (but "/" kept). Returns
 * undefined for static assets (images, css, js, fonts, …), well-known non-pages and anything that is not a path.
 * Markdown and llms.txt variants are pages: they are what AI agents read.
 */
export function pagePath(urlOrPath: string): string | undefined {
  let path = urlOrPath.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return undefined;
    }
  }
  path = path.replace(/[?#].*$/s, '');
  if (!path.startsWith('/') || path.length > MAX_PATH_LENGTH || /[\s\x00-\x1f\x7f]/.test(path)) return undefined;
  if (path.length > 1) path = path.replace(/\/+$/, '') || '/';
  if (STATIC_ASSET.test(path) || NOT_PAGES.has(path.toLowerCase()) || path.startsWith('/_next/')) return undefined;
  return path;
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
