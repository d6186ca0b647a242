import { Invalid } from '../../errors.js';
import { storeKeyDirectory } from '../store/key-directories.js';
import type { Sql } from '../store/sql.js';
import type { RangeFile } from './ai-user-agents/published-lists.js';
import { ed25519Thumbprint, type KnownDirectory } from './key-directories.js';
import { directoryUrl } from './verify-signature.js';

/** What an import did with one directory. */
export interface DirectoryImport {
  url: string;
  keys: number;
  retrievedAt: string;
  outcome: 'imported' | 'older than the stored copy';
}

/** Whether a downloaded file is a key directory snapshot (`{"directories": [...]}`) rather than a range list. */
export function isDirectoryFile(file: RangeFile): boolean {
  try {
    const body = JSON.parse(file.text) as unknown;
    return typeof body === 'object' && body !== null && 'directories' in body;
  } catch {
    return false;
  }
}

/**
 * Keeps the directories of snapshot files (the shipped `key-directories.json` format) for every replica: each entry
 * is checked (an http(s) URL, agent names, Ed25519 JWKs; a bad file fails the whole import, `Invalid`); a copy
 * older than the one stored is skipped.
 */
export async function importKeyDirectoryFiles(sql: Sql, files: RangeFile[]): Promise<DirectoryImport[]> {
  const entries = files.flatMap((file) => {
    try {
      return checkedDirectories(file);
    } catch (err) {
      throw new Invalid(`${file.name}: ${(err as Error).message}`);
    }
  });
  const results: DirectoryImport[] = [];
  for (const entry of entries) {
    const kept = await storeKeyDirectory(sql, entry);
    results.push({
      url: entry.url,
      keys: entry.keys.length,
      retrievedAt: new Date(entry.retrievedMs).toISOString(),
      outcome: kept ? 'imported' : 'older than the stored copy',
    });
  }
  return results;
}

function checkedDirectories(file: RangeFile): (KnownDirectory & { retrievedMs: number })[] {
  const { directories } = JSON.parse(file.text) as { directories: unknown };
  if (!Array.isArray(directories)) throw new Error('"directories" is not an array');
  return directories.map((d: Partial<KnownDirectory>, i) => {
    const where = `directories[${i}]`;
    if (typeof d?.url !== 'string' || directoryUrl(d.url) !== d.url)
      throw new Error(`${where}.url must be a directory's full http(s) URL`);
    if (typeof d.operator !== 'string' || !d.operator) throw new Error(`${where}.operator is required`);
    if (!Array.isArray(d.agents) || !d.agents.length || !d.agents.every((a) => typeof a === 'string' && a))
      throw new Error(`${where}.agents must name at least one agent`);
    const keys = d.keys ?? [];
    if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'object' && k && ed25519Thumbprint(k)))
      throw new Error(`${where}.keys must be Ed25519 JWKs`);
    const retrievedMs = Date.parse(d.retrievedAt ?? file.retrievedAt);
    if (!Number.isFinite(retrievedMs)) throw new Error(`${where}.retrievedAt is not a date`);
    return { url: d.url, operator: d.operator, agents: d.agents, keys, retrievedMs };
  });
}
