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

/** 1 − edit distance ÷ the longer length: `installation` and `install` are close, `auth` and `billing` are not. */
function closeness(a: string, b: string): number {
  if (!a.length && !b.length) return 1;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return 1 - row[b.length] / Math.max(a.length, b.length);
}

const lastSegment = (path: string) => path.replace(/\/+$/, '').split('/').pop()!.toLowerCase();

/**
 * Up to three pages a missing URL could redirect to, best first: how many words of the URL its path and title share,
 * and how close its last segment is to the URL's (a renamed page usually keeps most of its name). Pure.
 */
export function redirectCandidates(url: string, pages: readonly SitePage[]): RedirectCandidate[] {
  const wanted = words(url);
  const last = lastSegment(url);
  const scored: RedirectCandidate[] = [];
  for (const page of pages) {
    if (page.path.toLowerCase() === url.toLowerCase()) continue;
    const byPath = 0.6 * jaccard(wanted, words(page.path)) + 0.4 * closeness(last, lastSegment(page.path));
    const byTitle = page.title ? jaccard(wanted, words(page.title)) : 0;
    const score = Math.round(Math.max(byPath, byTitle) * 1000) / 1000;
    if (score >= MIN_SCORE) scored.push({ path: page.path, file: page.file, title: page.title, score });
  }
  return scored
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, MAX_CANDIDATES);
}
