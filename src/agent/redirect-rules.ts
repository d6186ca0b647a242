/** A Mintlify `redirects` entry. */
export interface Redirect {
  source: string;
  destination: string;
}

export interface RedirectRules {
  list: Redirect[];
  /** Whether a site path (e.g. `/guides/old`) is the source of a redirect, so a link to it still works. */
  matches(sitePath: string): boolean;
}

/** Normalised for comparison: no query or fragment, no trailing slash, decoded. */
export function normalizeSitePath(value: string): string {
  let result = value.replace(/[?#].*$/, '');
  try {
    result = decodeURI(result);
  } catch {
    // keep it as written
  }
  return `/${result.replace(/^\/+|\/+$/g, '')}`;
}

/** `/blog/:slug*` style patterns (path-to-regexp, as Next.js and Mintlify use them) as a regular expression. */
function sourcePattern(source: string): RegExp {
  const pattern = normalizeSitePath(source)
    .split(/(:[A-Za-z_]\w*[*+?]?|\*)/)
    .map((part, i) => {
      if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (part === '*' || part.endsWith('*')) return '.*';
      if (part.endsWith('+')) return '.+';
      return part.endsWith('?') ? '[^/]*' : '[^/]+';
    })
    .join('');
  // "/docs/:slug*" also matches "/docs" itself.
  return new RegExp(`^${pattern.replace(/\/\.\*$/, '(?:/.*)?')}$`, 'i');
}

export function redirectRules(config: unknown): RedirectRules {
  const raw = (config as { redirects?: unknown } | null)?.redirects;
  const list = (Array.isArray(raw) ? raw : []).filter(
    (entry): entry is Redirect => typeof entry?.source === 'string' && typeof entry?.destination === 'string',
  );
  const exact = new Set(
    list.filter((r) => !/[:*]/.test(r.source)).map((r) => normalizeSitePath(r.source).toLowerCase()),
  );
  const patterns = list.filter((r) => /[:*]/.test(r.source)).map((r) => sourcePattern(r.source));
  return {
    list,
    matches: (sitePath) => {
      const path = normalizeSitePath(sitePath);
      return exact.has(path.toLowerCase()) || patterns.some((pattern) => pattern.test(path));
    },
  };
}
