import { Invalid } from '../../errors.js';
import { readRangeLists, storeRangeList } from '../store/ai-range-lists.js';
import type { Sql } from '../store/sql.js';
import { copiesFromFiles, type RangeFile } from './ai-user-agents/published-lists.js';

/** What an import did with one list. */
export interface RangeImport {
  url: string;
  prefixes: number;
  retrievedAt: string;
  outcome: 'imported' | 'older than the stored copy';
}

/**
 * Keeps downloaded list files (a `crawlers.json` snapshot, or operators' own files named as their URLs name them) as
 * the lists' stored copies, for every replica: the refresh by hand of a deployment without network. Every prefix is
 * checked (a bad file fails the whole import, `Invalid`); a copy older than the one stored is skipped. An operator's deliberate import is not held back as a
 * shrink, unlike an unattended refresh.
 */
export async function importRangeFiles(sql: Sql, files: RangeFile[]): Promise<RangeImport[]> {
  const copies = files
    .flatMap((file) => {
      try {
        return copiesFromFiles([file]);
      } catch (err) {
        throw new Invalid(`${file.name}: ${(err as Error).message}`);
      }
    })
    .sort((a, b) => Date.parse(b.retrievedAt) - Date.parse(a.retrievedAt));
  const stored = new Map((await readRangeLists(sql)).map((s) => [s.url, s.retrievedAt]));
  const results: RangeImport[] = [];
  for (const copy of copies) {
    const retrievedAt = Date.parse(copy.retrievedAt);
    const held = stored.get(copy.url);
    const base = { url: copy.url, prefixes: copy.prefixes.length, retrievedAt: copy.retrievedAt };
    if (held != null && held >= retrievedAt) {
      results.push({ ...base, outcome: 'older than the stored copy' });
      continue;
    }
    await storeRangeList(sql, {
      url: copy.url,
      prefixes: copy.prefixes,
      creationTime: copy.creationTime,
      retrievedAt,
    });
    stored.set(copy.url, retrievedAt);
    results.push({ ...base, outcome: 'imported' });
  }
  return results;
}
