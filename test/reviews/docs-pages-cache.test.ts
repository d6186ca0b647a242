import { DocsPagesCache } from '../../src/reviews/docs-pages-cache.js';
import type { DocsPage } from '../../src/reviews/impact/find-impact.js';

const page = (text: string): DocsPage => ({ path: 'index.md', text });

/** a read that counts its calls and answers `pages` */
function reader(pages: DocsPage[] = [page('hello')]) {
  const read = Object.assign(
    async () => {
      read.calls++;
      return pages;
    },
    { calls: 0 },
  );
  return read;
}

describe('DocsPagesCache', () => {
  it('reads a commit once for every review of it, concurrent or later, whatever the repository name case', async () => {
    const cache = new DocsPagesCache();
    const read = reader();
    const [a, b] = await Promise.all([cache.get('acme/docs', 'abc', read), cache.get('Acme/Docs', 'abc', read)]);
    expect(await cache.get('ACME/docs', 'abc', read)).toBe(a);
    expect(b).toBe(a);
    expect(read.calls).toBe(1);
    await cache.get('acme/docs', 'def', read);
    expect(read.calls).toBe(2);
  });

  it('keeps the four most recently used snapshots', async () => {
    const cache = new DocsPagesCache();
    const read = reader();
    for (const sha of ['1', '2', '3', '4']) await cache.get('acme/docs', sha, read);
    await cache.get('acme/docs', '1', read); // used again: '2' is now the oldest
    await cache.get('acme/docs', '5', read);
    expect(read.calls).toBe(5);
    await cache.get('acme/docs', '1', read);
    expect(read.calls).toBe(5);
    await cache.get('acme/docs', '2', read);
    expect(read.calls).toBe(6);
  });

  it('forgets a failed read, and answers but does not keep a snapshot over its size limit', async () => {
    const cache = new DocsPagesCache();
    await expect(
      cache.get('acme/docs', 'abc', async () => {
        throw new Error('clone failed');
      }),
    ).rejects.toThrow('clone failed');
    const read = reader();
    await cache.get('acme/docs', 'abc', read);
    expect(read.calls).toBe(1);

    // 65 M characters of page text is 130 MiB as JavaScript holds it, over the 128 MiB a snapshot may take
    const huge = reader([page('x'.repeat(65 * 1024 * 1024))]);
    expect((await cache.get('acme/docs', 'big', huge))[0].text).toHaveLength(65 * 1024 * 1024);
    await cache.get('acme/docs', 'big', huge);
    expect(huge.calls).toBe(2);
  });

  it('holds at most 256 MiB of page text, dropping the least recently used snapshots to stay under it', async () => {
    const cache = new DocsPagesCache();
    // three snapshots of 50 M characters (100 MiB each): the third pushes out the first
    const big = reader([page('y'.repeat(50 * 1024 * 1024))]);
    for (const sha of ['1', '2', '3']) await cache.get('acme/docs', sha, big);
    await cache.get('acme/docs', '3', big);
    await cache.get('acme/docs', '2', big);
    expect(big.calls).toBe(3);
    await cache.get('acme/docs', '1', big);
    expect(big.calls).toBe(4);
  });
});
