import { sitePages } from '../problems/site-pages.js';
import type { ChangedFile } from '../reviews/impact/find-impact.js';

/** A page a docs pull request changed, by the path the site serves it at. */
export type ChangedPage =
  | { path: string; change: 'added' | 'edited' | 'deleted' }
  | { path: string; change: 'moved'; from: string };

/** A changed file as GitHub lists a pull request's files. */
export type PullRequestFile = Pick<ChangedFile, 'filename' | 'status' | 'previousFilename'>;

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
  return pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
