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

const lastSegment = (path: string) => path.replace(/\/+$/, '').split('/').pop()!.toLowerCase();

/** The most `closeness` can be from the lengths alone: an edit changes the length by at most one. */
const lengthBound = (a: string, b: string) => 1 - Math.abs(a.length - b.length) / Math.max(1, a.length, b.length);

/** Characters of one string less those of another, per character code (cleared after each use). */
const tally = new Int32Array(65536);

/**
 * The most `closeness` can be from the characters: an edit changes one character, so the distance is at least the
 * larger of what each string has that the other lacks (a tighter bound than the lengths'). Linear, where the distance
 * itself is quadratic.
 */
function characterBound(a: string, b: string): number {
  for (let i = 0; i < a.length; i++) tally[a.charCodeAt(i)]++;
  for (let i = 0; i < b.length; i++) tally[b.charCodeAt(i)]--;
  let [extra, missing] = [0, 0];
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i);
    if (tally[c] > 0) extra += tally[c];
    else if (tally[c] < 0) missing -= tally[c];
    tally[c] = 0;
  }
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i);
    if (tally[c] < 0) missing -= tally[c];
    tally[c] = 0;
  }
  return 1 - Math.max(extra, missing) / Math.max(1, a.length, b.length);
}

/** A page as scored: its words (as ids of the index's vocabulary) and last segment, worked out once per list. */
interface IndexedPage {
  page: SitePage;
  lowerPath: string;
  words: Int32Array;
  titleWords: Int32Array | null;
  last: string;
}

/** The pages indexed, and the candidates of every URL asked so far, per list of pages (a list is one docs ref's). */
interface PageIndex {
  pages: IndexedPage[];
  /** the pages serving each path (two files can serve one) */
  byPath: Map<string, IndexedPage[]>;
  vocabulary: Map<string, number>;
  /** per word id, whether the URL being scored has it (set and cleared around each URL) */
  marks: Uint8Array;
  found: Map<string, RedirectCandidate[]>;
  /** isRedirectCandidate's answers, by path and URL */
  named: Map<string, boolean>;
}

/** URLs remembered per list of pages; past it the memory starts again. */
const REMEMBERED = 100_000;
const indexes = new WeakMap<readonly SitePage[], PageIndex>();

function indexOf(pages: readonly SitePage[]): PageIndex {
  let index = indexes.get(pages);
  if (!index) {
    const vocabulary = new Map<string, number>();
    const ids = (text: string) =>
      Int32Array.from(words(text), (w) => {
        let id = vocabulary.get(w);
        if (id === undefined) vocabulary.set(w, (id = vocabulary.size));
        return id;
      });
    const indexed = pages.map((page) => ({
      page,
      lowerPath: page.path.toLowerCase(),
      words: ids(page.path),
      titleWords: page.title ? ids(page.title) : null,
      last: lastSegment(page.path),
    }));
    const byPath = new Map<string, IndexedPage[]>();
    for (const entry of indexed) byPath.set(entry.page.path, [...(byPath.get(entry.page.path) ?? []), entry]);
    index = {
      pages: indexed,
      byPath,
      vocabulary,
      marks: new Uint8Array(vocabulary.size),
      found: new Map(),
      named: new Map(),
    };
    indexes.set(pages, index);
  }
  return index;
}

/** The Jaccard index of the URL's words (`size` of them, marked in `marks`) and a page's. */
function sharedShare(size: number, marks: Uint8Array, page: Int32Array | null): number {
  if (!page?.length || !size) return 0;
  let shared = 0;
  for (let i = 0; i < page.length; i++) shared += marks[page[i]];
  return shared / (size + page.length - shared);
}

const rounded = (score: number) => Math.round(score * 1000) / 1000;

/**
 * Scores the pages of an index against one URL: a page's score, or -1 when it is the URL itself or its ceiling (its
 * words, and the lengths of the last segments) is below `floor`, so the edit distance is only worked out for pages
 * that could matter. `done()` clears the URL's marks.
 */
function urlScorer(index: PageIndex, url: string) {
  const wanted = words(url);
  const wantedIds = [...wanted].flatMap((w) => index.vocabulary.get(w) ?? []);
  const { marks } = index;
  for (const id of wantedIds) marks[id] = 1;
  const last = lastSegment(url);
  const lowerUrl = url.toLowerCase();
  return {
    score(entry: IndexedPage, floor: number): number {
      if (entry.lowerPath === lowerUrl) return -1;
      const byWords = 0.6 * sharedShare(wanted.size, marks, entry.words);
      const byTitle = sharedShare(wanted.size, marks, entry.titleWords);
      // the edit distance only for a page whose ceilings (the cheaper first) reach the floor
      if (rounded(Math.max(byWords + 0.4 * lengthBound(last, entry.last), byTitle)) < floor) return -1;
      if (rounded(Math.max(byWords + 0.4 * characterBound(last, entry.last), byTitle)) < floor) return -1;
      const score = rounded(Math.max(byWords + 0.4 * closeness(last, entry.last), byTitle));
      return score < floor ? -1 : score;
    },
    done() {
      for (const id of wantedIds) marks[id] = 0;
    },
  };
}

/** Candidates' order: best score first, then path. */
const ranksAbove = (a: { score: number; path: string }, b: { score: number; path: string }) =>
  a.score > b.score || (a.score === b.score && a.path < b.path);

/**
 * Up to three pages a missing URL could redirect to, best first: how many words of the URL its path and title share,
 * and how close its last segment is to the URL's (a renamed page usually keeps most of its name). Pure: the pages
 * are indexed once per list and each URL's answer remembered with it, and the edit distance is worked out only for a
 * page whose ceiling reaches the third best score so far.
 */
export function redirectCandidates(url: string, pages: readonly SitePage[]): RedirectCandidate[] {
  const index = indexOf(pages);
  const known = index.found.get(url);
  if (known) return known;
  const scorer = urlScorer(index, url);
  const best: RedirectCandidate[] = [];
  // the score a page must reach to be among the three so far
  let floor = MIN_SCORE;
  try {
    for (const entry of index.pages) {
      const score = scorer.score(entry, floor);
      if (score < 0) continue;
      const { page } = entry;
      best.push({ path: page.path, file: page.file, title: page.title, score });
      best.sort((a, b) => (ranksAbove(a, b) ? -1 : ranksAbove(b, a) ? 1 : 0));
      if (best.length > MAX_CANDIDATES) best.pop();
      if (best.length === MAX_CANDIDATES) floor = best[MAX_CANDIDATES - 1].score;
    }
  } finally {
    scorer.done();
  }
  if (index.found.size >= REMEMBERED) index.found.clear();
  index.found.set(url, best);
  return best;
}

/**
 * Whether the page at `path` is among a URL's candidates (redirectCandidates(url, pages) names it), without ranking
 * every page: it is unless three pages rank above it, and the scan stops at the third (the page story asks this of
 * every missing URL that could point at its page). Each answer is remembered with the pages, as the candidates are.
 */
export function isRedirectCandidate(url: string, path: string, pages: readonly SitePage[]): boolean {
  const index = indexOf(pages);
  const known = index.found.get(url);
  if (known) return known.some((c) => c.path === path);
  const key = `${path}\0${url}`;
  const answered = index.named.get(key);
  if (answered !== undefined) return answered;
  const scorer = urlScorer(index, url);
  try {
    // two files can serve one path: the path is a candidate when one of its pages is (looked up, not searched for:
    // the page story asks this of thousands of URLs)
    const named = (index.byPath.get(path) ?? []).some((self) => {
      const score = scorer.score(self, MIN_SCORE);
      if (score < 0) return false;
      let above = 0;
      for (const entry of index.pages) {
        if (entry === self) continue;
        const other = scorer.score(entry, score);
        if (
          other >= 0 &&
          ranksAbove({ score: other, path: entry.page.path }, { score, path }) &&
          ++above === MAX_CANDIDATES
        )
          return false;
      }
      return true;
    });
    if (index.named.size >= REMEMBERED) index.named.clear();
    index.named.set(key, named);
    return named;
  } finally {
    scorer.done();
  }
}
