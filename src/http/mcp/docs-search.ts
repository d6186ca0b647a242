/** One page as search sees it. */
export interface SearchablePage {
  slug: string;
  title: string;
  text: string;
}

export interface SearchHit {
  path: string;
  title: string;
  score: number;
  snippet: string;
}

const WORD = /[\p{L}\p{N}_]+/gu;
const TITLE_WEIGHT = 3;
const K1 = 1.2;
const B = 0.75;
const SNIPPET_CHARS = 240;

function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * A BM25 index over a docs site's pages, built once per commit: a query costs a lookup per word and a pass over
 * the pages that hold it, not a scan of the site. A page's title counts three times its body.
 */
export class DocsSearch {
  private readonly postings = new Map<string, { pages: number[]; counts: number[] }>();
  private readonly lengths: Float64Array;
  private readonly averageLength: number;

  constructor(private readonly pages: readonly SearchablePage[]) {
    this.lengths = new Float64Array(pages.length);
    pages.forEach((page, i) => {
      const counts = new Map<string, number>();
      for (const w of words(page.text)) counts.set(w, (counts.get(w) ?? 0) + 1);
      for (const w of words(page.title)) counts.set(w, (counts.get(w) ?? 0) + TITLE_WEIGHT);
      let length = 0;
      for (const [w, n] of counts) {
        length += n;
        let posting = this.postings.get(w);
        if (!posting) this.postings.set(w, (posting = { pages: [], counts: [] }));
        posting.pages.push(i);
        posting.counts.push(n);
      }
      this.lengths[i] = length;
    });
    this.averageLength = pages.length ? this.lengths.reduce((a, b) => a + b, 0) / pages.length : 1;
  }

  /** The best pages for the query's words, best first (ties by path), each with the passage that matched. */
  search(query: string, limit: number): SearchHit[] {
    const terms = [...new Set(words(query))].slice(0, 32);
    const scores = new Map<number, number>();
    const n = this.pages.length;
    for (const term of terms) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.pages.length + 0.5) / (posting.pages.length + 0.5));
      for (let j = 0; j < posting.pages.length; j++) {
        const i = posting.pages[j];
        const tf = posting.counts[j];
        const norm = tf + K1 * (1 - B + (B * this.lengths[i]) / this.averageLength);
        scores.set(i, (scores.get(i) ?? 0) + (idf * tf * (K1 + 1)) / norm);
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || (this.pages[a[0]].slug < this.pages[b[0]].slug ? -1 : 1))
      .slice(0, limit)
      .map(([i, score]) => ({
        path: this.pages[i].slug,
        title: this.pages[i].title,
        score: Math.round(score * 1000) / 1000,
        snippet: snippet(this.pages[i].text, terms),
      }));
  }
}

/** The first line holding a query word, cut around it; else the page's first words. */
function snippet(text: string, terms: string[]): string {
  const lower = text.toLowerCase();
  let at = -1;
  for (const term of terms) {
    const found = lower.search(new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(term)}(?![\\p{L}\\p{N}_])`, 'u'));
    if (found >= 0 && (at < 0 || found < at)) at = found;
  }
  const start = Math.max(0, at < 0 ? 0 : at - SNIPPET_CHARS / 3);
  const cut = text
    .slice(start, start + SNIPPET_CHARS)
    .replace(/\s+/g, ' ')
    .trim();
  return `${start > 0 ? '…' : ''}${cut}${start + SNIPPET_CHARS < text.length ? '…' : ''}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
