import type { RedirectCandidate } from './problem.js';

/** A page of the docs at its ref, as the site serves it. */
export interface SitePage {
  /** `/guides/setup` */
  path: string;
  /** `docs/guides/setup.mdx` */
  file: string;
  title: string | null;
}

const MAX_CANDIDATES = 3;
/** Below this a page shares too little with the URL to be offered as where it went. */
const MIN_SCORE = 0.25;

const words = (text: string): Set<string> =>
  new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 1),
  );

function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/** One row of the edit distance, reused: a missing URL is scored against every page. */
let row = new Int32Array(64);
let next = new Int32Array(64);

/** 1 − edit distance ÷ the longer length: `installation` and `install` are close, `auth` and `billing` are not. */
function closeness(a: string, b: string): number {
  if (!a.length && !b.length) return 1;
  if (row.length <= b.length) {
    row = new Int32Array(b.length + 1);
    next = new Int32Array(b.length + 1);
  }
  for (let j = 0; j <= b.length; j++) row[j] = j;
  for (let i = 1; i <= a.length; i++) {
    next[0] = i;
    const c = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (c === b.charCodeAt(j - 1) ? 0 : 1));
    [row, next] = [next, row];
  }
  return 1 - row[b.length] / Math.max(a.length, b.length);
}

/** How often each UTF-16 unit occurs in a text. */
function unitCounts(text: string): Map<number, number> {
  const counts = new Map<number, number>();
  for (let i = 0; i < text.length; i++) counts.set(text.charCodeAt(i), (counts.get(text.charCodeAt(i)) ?? 0) + 1);
  return counts;
}

/**
 * The most `closeness` can be: an edit changes the counts of units by at most two (a substitution) and the length by
 * at most one, so the distance is at least half the counts' difference and at least the lengths' difference.
 */
function closenessBound(a: string, aCounts: Map<number, number>, b: string, bCounts: Map<number, number>): number {
  const longer = Math.max(a.length, b.length);
  if (!longer) return 1;
  let apart = 0;
  for (const [unit, n] of aCounts) apart += Math.abs(n - (bCounts.get(unit) ?? 0));
  for (const [unit, n] of bCounts) if (!aCounts.has(unit)) apart += n;
  return 1 - Math.max(Math.abs(a.length - b.length), Math.ceil(apart / 2)) / longer;
}

const lastSegment = (path: string) => path.replace(/\/+$/, '').split('/').pop()!.toLowerCase();

/** A page as scored: its words and last segment, worked out once per list of pages. */
interface IndexedPage {
  page: SitePage;
  lowerPath: string;
  words: Set<string>;
  titleWords: Set<string> | null;
  last: string;
  lastCounts: Map<number, number>;
}

/** The pages indexed, and the candidates of every URL asked so far, per list of pages (a list is one docs ref's). */
interface PageIndex {
  pages: IndexedPage[];
  found: Map<string, RedirectCandidate[]>;
}

/** URLs remembered per list of pages; past it the memory starts again. */
const REMEMBERED = 100_000;
const indexes = new WeakMap<readonly SitePage[], PageIndex>();

function indexOf(pages: readonly SitePage[]): PageIndex {
  let index = indexes.get(pages);
  if (!index) {
    index = {
      pages: pages.map((page) => ({
        page,
        lowerPath: page.path.toLowerCase(),
        words: words(page.path),
        titleWords: page.title ? words(page.title) : null,
        last: lastSegment(page.path),
        lastCounts: unitCounts(lastSegment(page.path)),
      })),
      found: new Map(),
    };
    indexes.set(pages, index);
  }
  return index;
}

const rounded = (score: number) => Math.round(score * 1000) / 1000;

/**
 * Up to three pages a missing URL could redirect to, best first: how many words of the URL its path and title share,
 * and how close its last segment is to the URL's (a renamed page usually keeps most of its name). Pure: the pages
 * are indexed once per list and each URL's answer remembered with it, and the edit distance is worked out only for a
 * page whose bound (the words' share, and the lengths of the last segments) could still put it among the three.
 */
export function redirectCandidates(url: string, pages: readonly SitePage[]): RedirectCandidate[] {
  const index = indexOf(pages);
  const known = index.found.get(url);
  if (known) return known;
  const wanted = words(url);
  const last = lastSegment(url);
  const lowerUrl = url.toLowerCase();
  const lastCounts = unitCounts(last);
  // each page's score without the edit distance, and its ceiling: pages are scored fully best ceiling first, until
  // no ceiling left can reach the third best
  const n = index.pages.length;
  const partial = new Float64Array(n);
  const ceilings = new Float64Array(n);
  const order: number[] = [];
  for (let i = 0; i < n; i++) {
    const entry = index.pages[i];
    if (entry.lowerPath === lowerUrl) continue;
    const byWords = 0.6 * jaccard(wanted, entry.words);
    const byTitle = entry.titleWords ? jaccard(wanted, entry.titleWords) : 0;
    const bound = closenessBound(last, lastCounts, entry.last, entry.lastCounts);
    partial[i] = byWords;
    ceilings[i] = rounded(Math.max(byWords + 0.4 * bound, byTitle));
    if (ceilings[i] >= MIN_SCORE) order.push(i);
  }
  order.sort((a, b) => ceilings[b] - ceilings[a]);
  const best: RedirectCandidate[] = [];
  for (const i of order) {
    if (best.length === MAX_CANDIDATES && ceilings[i] < best[MAX_CANDIDATES - 1].score) break;
    const entry = index.pages[i];
    const byTitle = entry.titleWords ? jaccard(wanted, entry.titleWords) : 0;
    const score = rounded(Math.max(partial[i] + 0.4 * closeness(last, entry.last), byTitle));
    if (score < MIN_SCORE) continue;
    const { page } = entry;
    best.push({ path: page.path, file: page.file, title: page.title, score });
    best.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (best.length > MAX_CANDIDATES) best.pop();
  }
  if (index.found.size >= REMEMBERED) index.found.clear();
  index.found.set(url, best);
  return best;
}

/**
 * Whether `page` could be among a URL's candidates at all (its own score reaches the floor): one page scored, so
 * the URLs that cannot point at a page are passed over without scoring every page for them.
 */
export function couldRedirectTo(url: string, page: SitePage): boolean {
  if (page.path.toLowerCase() === url.toLowerCase()) return false;
  const wanted = words(url);
  const byPath = 0.6 * jaccard(wanted, words(page.path)) + 0.4 * closeness(lastSegment(url), lastSegment(page.path));
  const byTitle = page.title ? jaccard(wanted, words(page.title)) : 0;
  return rounded(Math.max(byPath, byTitle)) >= MIN_SCORE;
}
