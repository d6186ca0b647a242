/** The cache key of a family's segment of `size` days from `start` (size 1: a day as loaded). */
export const segmentKey = (projectId: string, family: string, size: number, start: number) =>
  `${projectId}:${family}:${size}:${start}`;

/**
 * Decoded day sets and multi-day unions kept in memory. Every entry carries the version of the data it was built
 * from (the generations of its days) and is only returned for that same version: a day whose events were folded
 * again since is reloaded, and unions over it are rebuilt. Least recently used entries go first when over the
 * byte budget.
 */
export class DayCache {
  private entries = new Map<string, { version: string; data: { bytes: number } }>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /** Entries of other shapes (e.g. the agent rollup's cells) live under their own key prefixes. */
  get<T extends { bytes: number }>(key: string, version: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== version) {
      this.bytes -= entry.data.bytes;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.data as T;
  }

  set(key: string, version: string, data: { bytes: number }): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.data.bytes;
    }
    if (data.bytes > this.budgetBytes) return;
    this.entries.set(key, { version, data });
    this.bytes += data.bytes;
    for (const [k, entry] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(k);
      this.bytes -= entry.data.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
