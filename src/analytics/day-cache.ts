import type { StoredDay } from './store.js';

/**
 * Decoded day sets kept in memory, checked against the day's generation on every use: a day whose events were
 * folded again since it was cached is reloaded. Least recently used days go first when over the byte budget.
 */
export class DayCache {
  private entries = new Map<string, { generation: number; day: StoredDay }>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get(projectId: string, day: number, generation: number): StoredDay | undefined {
    const key = `${projectId}:${day}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.generation !== generation) {
      this.bytes -= entry.day.bytes;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.day;
  }

  set(projectId: string, day: number, generation: number, data: StoredDay): void {
    const key = `${projectId}:${day}`;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.day.bytes;
    }
    if (data.bytes > this.budgetBytes) return;
    this.entries.set(key, { generation, day: data });
    this.bytes += data.bytes;
    for (const [k, entry] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(k);
      this.bytes -= entry.day.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
