/** The longest page path a tool accepts. */
export const MAX_PAGE_PATH = 1024;

/**
 * The site path (`/guide/intro`) a tool's or a URL's page path names, or why it names none. Pages are served from the
 * index in memory, never from disk; still, a `..` segment, a backslash or a control character is refused outright,
 * so no caller learns anything by trying to climb out of the site.
 */
export function pageSlug(input: string): { slug: string } | { error: string } {
  if (input.length > MAX_PAGE_PATH) return { error: `path is longer than ${MAX_PAGE_PATH} characters` };
  if (/[\\\u0000-\u001f\u007f]/.test(input)) return { error: 'path holds a backslash or a control character' };
  let path = input.trim().replace(/[?#].*$/s, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    return { error: 'path is not valid percent-encoding' };
  }
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) return { error: 'path must not climb out of the site (..)' };
  const joined = segments.join('/').replace(/\.mdx?$/i, '');
  return { slug: `/${joined}`.replace(/\/index$/i, '') || '/' };
}
