import { LRUCache } from 'lru-cache';
import type { DocsPage } from './impact/find-impact.js';

/** Docs snapshots kept; a docs repository's default branch moves far less often than source pull requests do. */
const SNAPSHOTS = 4;
/** Memory the kept snapshots' page texts may take together, counted as JavaScript holds them (2 bytes a unit). */
const MAX_BYTES = 256 * 1024 * 1024;
/** A snapshot bigger than this is not kept: it would crowd out the others for what it saves. */
const MAX_SNAPSHOT_BYTES = 128 * 1024 * 1024;

type Read = () => Promise<DocsPage[]>;

/**
 * The pages of recently read docs commits, so the reviews of many pull requests against the same docs commit clone
 * and read it once, and reviews arriving while it is read wait for that one read. Keyed by repository and commit: a
 * commit's pages never change.
 */
export class DocsPagesCache {
  private readonly snapshots = new LRUCache<string, DocsPage[], Read>({
    max: SNAPSHOTS,
    maxSize: MAX_BYTES,
    maxEntrySize: MAX_SNAPSHOT_BYTES,
    sizeCalculation: (pages) =>
      Math.max(
        1,
        pages.reduce((n, p) => n + 2 * p.text.length, 0),
      ),
    fetchMethod: (_key, _stale, { context }) => context(),
    // a read pushed out by newer ones while under way still answers the review that started it
    ignoreFetchAbort: true,
  });

  /** The pages of `repository` at `sha`, read by `read` unless a recent review read them; a failed read is forgotten. */
  async get(repository: string, sha: string, read: Read): Promise<DocsPage[]> {
    return (await this.snapshots.fetch(`${repository.toLowerCase()}@${sha}`, { context: read })) as DocsPage[];
  }
}
