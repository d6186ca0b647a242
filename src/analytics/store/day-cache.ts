import { LRUCache } from 'lru-cache';

/** What the cache holds: its size for the byte budget. */
export interface Cached {
  bytes: number;
}

interface Entry {
  version: string;
  data: Cached;
}

/**
 * Days as read and answers counted from them, kept in memory: one cache for every report. The one invalidation rule:
 * an entry is kept under the generations of its days (`version`, see store/derive-events.ts bumpDayGenerations) and
 * is only returned for those same generations; generations only grow, so an old copy never matches a newer day. Least
 * recently used entries leave first when over the byte budget. What it holds is ordinary JavaScript memory (blobs,
 * maps): a report still reading an entry the cache has dropped keeps it until it is done.
 */
export class DayCache {
  private readonly lru: LRUCache<string, Entry>;
  /** builds under way, by key and version: a second reader of the same entry waits for the first's */
  private readonly building = new Map<string, Promise<Cached>>();

  constructor(private readonly budgetBytes: number) {
    // an entry larger than the whole budget is not kept; a budget of 0 keeps nothing (lru-cache needs one above 0)
    this.lru = new LRUCache<string, Entry>({
      maxSize: Math.max(1, budgetBytes),
      sizeCalculation: (entry) => Math.max(1, entry.data.bytes),
    });
  }

  /** The entry built from this version of its days, if cached. */
  get<T extends Cached>(key: string, version: string): T | undefined {
    const entry = this.lru.get(key);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.lru.delete(key);
      return undefined;
    }
    return entry.data as T;
  }

  /** The entry built from this version of its days if cached, else what `build` makes, cached under it. */
  async keep<T extends Cached>(key: string, version: string, build: () => Promise<T>): Promise<T> {
    const cached = this.get<T>(key, version);
    if (cached) return cached;
    // concurrent readers of one entry build it once: the others take it from the cache when it is set
    const id = `${version}\0${key}`;
    const pending = this.building.get(id);
    if (pending) {
      await pending.catch(() => undefined);
      return this.keep(key, version, build);
    }
    const building = build();
    this.building.set(id, building);
    try {
      const data = await building;
      this.set(key, version, data);
      return data;
    } finally {
      this.building.delete(id);
    }
  }

  set(key: string, version: string, data: Cached): void {
    if (this.budgetBytes > 0) this.lru.set(key, { version, data });
  }

  get size(): number {
    return this.lru.size;
  }

  /** bytes held (the budget's measure) */
  get bytes(): number {
    return this.lru.calculatedSize;
  }
}
