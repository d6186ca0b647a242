import { LRUCache } from 'lru-cache';
import type { Bitmap } from './day-sets.js';

/** What the cache holds: its size for the byte budget, and the native bitmaps it alone owns (unions it built). */
export interface Cached {
  bytes: number;
  /** freed when the entry leaves the cache and no reader holds it; frozen views over blobs are the collector's */
  owned?: Bitmap[];
}

interface Entry {
  version: string;
  data: Cached;
  /** leases holding the entry now */
  readers: number;
  /** out of the cache (evicted, replaced, stale): freed by the last reader to let go */
  gone: boolean;
}

const free = (entry: Entry) => {
  for (const bitmap of entry.data.owned ?? []) bitmap.dispose();
};

/**
 * Decoded days and multi-day unions kept in memory, one cache for every report. The one invalidation rule: an entry
 * is kept under the generations of its days (`version`, see store/derive-events.ts bumpDayGenerations) and is only
 * returned for those same generations; generations only grow, so an old copy never matches a newer day. Least
 * recently used entries leave first when over the byte budget; their native bitmaps are freed then, or — while a
 * report still reads them — when the last lease holding them is released.
 */
export class DayCache {
  private readonly lru: LRUCache<string, Entry>;
  /** builds under way, by key and version: a second reader of the same entry waits for the first's */
  private readonly building = new Map<string, Promise<Cached>>();

  constructor(private readonly budgetBytes: number) {
    this.lru = new LRUCache<string, Entry>({
      maxSize: budgetBytes,
      sizeCalculation: (entry) => Math.max(1, entry.data.bytes),
      dispose: (entry) => {
        entry.gone = true;
        if (entry.readers === 0) free(entry);
      },
    });
  }

  /** A reader's hold on what it gets and sets, until `release()`: what it reads is not freed under it. */
  lease(): CacheLease {
    return new CacheLease(this.lru, this.budgetBytes, this.building);
  }

  get size(): number {
    return this.lru.size;
  }

  /** bytes held (the budget's measure) */
  get bytes(): number {
    return this.lru.calculatedSize;
  }
}

export class CacheLease {
  private readonly held: Entry[] = [];

  constructor(
    private readonly lru: LRUCache<string, Entry>,
    private readonly budgetBytes: number,
    private readonly building: Map<string, Promise<Cached>> = new Map(),
  ) {}

  /** The entry built from this version of its days, if cached. */
  get<T extends Cached>(key: string, version: string): T | undefined {
    const entry = this.lru.get(key);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.lru.delete(key);
      return undefined;
    }
    this.hold(entry);
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
    const entry: Entry = { version, data, readers: 0, gone: false };
    this.hold(entry);
    // larger than the whole budget: this reader's alone, freed when it lets go
    if (data.bytes > this.budgetBytes) entry.gone = true;
    else this.lru.set(key, entry);
  }

  /** Lets go of every entry held; those out of the cache meanwhile are freed now. */
  release(): void {
    for (const entry of this.held.splice(0)) {
      entry.readers--;
      if (entry.readers === 0 && entry.gone) free(entry);
    }
  }

  private hold(entry: Entry): void {
    entry.readers++;
    this.held.push(entry);
  }
}
