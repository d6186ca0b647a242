import { isRedirectCandidate, redirectCandidates, type SitePage } from '../../src/problems/redirect-candidates.js';

/** Every page scored in full, sorted, the first three kept: what the pruned search must answer. */
function naive(url: string, pages: SitePage[]) {
  const words = (text: string) =>
    new Set(
      text
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((w) => w.length > 1),
    );
  const jaccard = (a: Set<string>, b: Set<string>) => {
    if (!a.size || !b.size) return 0;
    const shared = [...a].filter((w) => b.has(w)).length;
    return shared / (a.size + b.size - shared);
  };
  const distance = (a: string, b: string): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
    for (let j = 0; j <= b.length; j++) d[0][j] = j;
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++)
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    return d[a.length][b.length];
  };
  const last = (p: string) => p.replace(/\/+$/, '').split('/').pop()!.toLowerCase();
  const closeness = (a: string, b: string) => (!a && !b ? 1 : 1 - distance(a, b) / Math.max(a.length, b.length));
  return pages
    .filter((p) => p.path.toLowerCase() !== url.toLowerCase())
    .map((p) => {
      const byPath = 0.6 * jaccard(words(url), words(p.path)) + 0.4 * closeness(last(url), last(p.path));
      const byTitle = p.title ? jaccard(words(url), words(p.title)) : 0;
      return { path: p.path, file: p.file, title: p.title, score: Math.round(Math.max(byPath, byTitle) * 1000) / 1000 };
    })
    .filter((c) => c.score >= 0.25)
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, 3);
}

function rng(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return Math.floor(s / 65536) % n;
  };
}

const WORDS = ['install', 'installation', 'setup', 'auth', 'billing', 'api', 'guide', 'ref', 'quickstart', 'sdk', 'é'];

describe('redirect candidates', () => {
  it('are the three best pages of a full scoring, ties by path, whatever the pages and URLs', () => {
    const next = rng(34);
    const word = () => WORDS[next(WORDS.length)] + (next(3) === 0 ? `-${next(20)}` : '');
    let offered = 0;
    for (let round = 0; round < 20; round++) {
      const pages: SitePage[] = Array.from({ length: 60 }, (_, i) => {
        const path = `/${word()}/${word()}${next(4) === 0 ? '/' : ''}`;
        return { path, file: `docs${path}${i}.mdx`, title: next(2) ? `${word()} ${word()}` : null };
      });
      for (let u = 0; u < 30; u++) {
        const url = next(5) === 0 ? pages[next(pages.length)].path.toUpperCase() : `/${word()}/${word()}-old`;
        const expected = naive(url, pages);
        // whether each path is a candidate, asked of a list whose candidates are not remembered yet
        const fresh = [...pages];
        const named = pages.map((p) => ({ path: p.path, named: isRedirectCandidate(url, p.path, fresh) }));
        expect(named).toEqual(pages.map((p) => ({ path: p.path, named: expected.some((c) => c.path === p.path) })));
        expect({ url, found: redirectCandidates(url, pages) }).toEqual({ url, found: expected });
        // asked again: the answer remembered for these pages
        expect(redirectCandidates(url, pages)).toEqual(expected);
        expect(
          pages.every((p) => isRedirectCandidate(url, p.path, pages) === expected.some((c) => c.path === p.path)),
        ).toBe(true);
        offered += expected.length;
      }
    }
    expect(offered).toBeGreaterThan(500);
  });

  it('scores against the list it is given, not one remembered for other pages', () => {
    const a: SitePage[] = [{ path: '/guides/install', file: 'a.mdx', title: 'Install' }];
    const b: SitePage[] = [{ path: '/guides/billing', file: 'b.mdx', title: 'Billing' }];
    expect(redirectCandidates('/guides/install-old', a).map((c) => c.path)).toEqual(['/guides/install']);
    expect(redirectCandidates('/guides/install-old', b).map((c) => c.path)).not.toContain('/guides/install');
  });
});
