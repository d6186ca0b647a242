import type { DocsPage } from './impact/find-impact.js';

/** Docs snapshots kept; a docs repository's default branch moves far less often than source pull requests do. */
const SNAPSHOTS = 4;
/** A snapshot bigger than this (in characters) is not kept: it would hold too much memory for what it saves. */
const MAX_SNAPSHOT_CHARS = 64 * 1024 * 1024;

/**
 * The pages of recently read docs commits, newest use last, so the reviews of many pull requests against the same
 * docs commit clone and read it once. Keyed by repository and commit: a commit's pages never change.
 */
export class DocsPagesCache {
  private readonly snapshots = new Map<string, Promise<DocsPage[]>>();

  /** The pages of `repository` at `sha`, read by `read` unless a recent review read them; a failed read is forgotten. */
  get(repository: string, sha: string, read: () => Promise<DocsPage[]>): Promise<DocsPage[]> {
    const key = `${repository.toLowerCase()}@${sha}`;
    let pages = this.snapshots.get(key);
    if (pages) this.snapshots.delete(key);
    else {
      pages = read();
      pages.then(
        (read) => {
          if (read.reduce((n, p) => n + p.text.length, 0) > MAX_SNAPSHOT_CHARS) this.snapshots.delete(key);
        },
        () => this.snapshots.delete(key),
      );
    }
    this.snapshots.set(key, pages);
    while (this.snapshots.size > SNAPSHOTS) this.snapshots.delete(this.snapshots.keys().next().value!);
    return pages;
  }
}
