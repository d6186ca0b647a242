import { sitePages } from '../problems/site-pages.js';
import type { ChangedFile } from '../reviews/impact/find-impact.js';

/** A page a docs pull request changed, by the path the site serves it at. */
export type ChangedPage =
  | { path: string; change: 'added' | 'edited' | 'deleted' }
  | { path: string; change: 'moved'; from: string }
  /** a redirect the pull request added: from the URL readers asked for to this page */
  | { path: string; change: 'redirected'; from: string };

/** A changed file as GitHub lists a pull request's files. */
export type PullRequestFile = Pick<ChangedFile, 'filename' | 'status' | 'previousFilename' | 'patch'>;

const REDIRECT_FILES = new Set(['docs.json', 'mint.json', 'vercel.json', '_redirects', 'netlify.toml']);
const sitePath = (value: string) => (value.length > 1 ? value.replace(/\/+$/, '') : value);

/**
 * The redirects a pull request added, read from the added lines of its redirect files' diffs (Mintlify's docs.json or
 * mint.json `redirects`, vercel.json, Netlify's `_redirects` and netlify.toml): exact paths only, as a pattern
 * (`:slug`, `*`) names no one URL whose misses can be counted. Pure.
 */
export function addedRedirects(files: readonly PullRequestFile[]): { from: string; to: string }[] {
  const found: { from: string; to: string }[] = [];
  for (const file of files) {
    const name = file.filename.split('/').at(-1) ?? '';
    if (!REDIRECT_FILES.has(name) || !file.patch || file.status === 'removed') continue;
    const added = file.patch
      .split('\n')
      .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
      .map((l) => l.slice(1))
      .join('\n');
    const pairs =
      name === '_redirects'
        ? added.split('\n').map((l) => l.replace(/#.*$/, '').trim().split(/\s+/))
        : name === 'netlify.toml'
          ? [...added.matchAll(/from\s*=\s*"([^"]+)"\s*\n\s*to\s*=\s*"([^"]+)"/g)].map((m) => [m[1], m[2]])
          : [...added.matchAll(/"source"\s*:\s*"([^"]+)"\s*,\s*"destination"\s*:\s*"([^"]+)"/g)].map((m) => [
              m[1],
              m[2],
            ]);
    for (const [from, to] of pairs)
      if (from?.startsWith('/') && to?.startsWith('/') && !/[:*]/.test(from + to))
        found.push({ from: sitePath(from), to: sitePath(to) });
  }
  return found;
}

const CHANGE: Record<PullRequestFile['status'], 'added' | 'edited' | 'deleted' | 'moved' | null> = {
  added: 'added',
  copied: 'added',
  modified: 'edited',
  changed: 'edited',
  renamed: 'moved',
  removed: 'deleted',
  unchanged: null,
};

/**
 * The pages a merged pull request changed, from its files as GitHub lists them (what merged, whoever pushed it),
 * mapped to page paths the way the problems queue maps the site's files (problems/site-pages.ts), so a page's traffic
 * and a change to it name it alike. `siteFiles` are the docs branch's files after the merge; they place the docs root.
 * Files that are not pages (configuration, images) are left out. Pure.
 */
export function changedPages(files: readonly PullRequestFile[], siteFiles: readonly string[]): ChangedPage[] {
  const named = files.flatMap((f) => [f.filename, ...(f.previousFilename ? [f.previousFilename] : [])]);
  const all = [...new Set([...siteFiles, ...named])].map((path) => ({ path, text: '' }));
  const pathOf = new Map(sitePages(all).map((p) => [p.file, p.path]));
  const pages: ChangedPage[] = [];
  for (const file of files) {
    const change = CHANGE[file.status];
    const path = pathOf.get(file.filename);
    if (!change || !path) continue;
    if (change !== 'moved') pages.push({ path, change });
    else {
      const from = file.previousFilename && pathOf.get(file.previousFilename);
      // a page moved from a file that was not a page (a draft renamed to .mdx) is new to readers
      pages.push(from && from !== path ? { path, change: 'moved', from } : { path, change: from ? 'edited' : 'added' });
    }
  }
  // a redirect from a moved page's old address is that move's; any other names a URL readers were missing
  const covered = new Set(pages.flatMap((p) => ('from' in p ? [p.from] : [])));
  for (const redirect of addedRedirects(files))
    if (!covered.has(redirect.from)) {
      covered.add(redirect.from);
      pages.push({ path: redirect.to, change: 'redirected', from: redirect.from });
    }
  return pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.change < b.change ? -1 : 1));
}
