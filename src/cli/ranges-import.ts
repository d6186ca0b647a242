import fs from 'node:fs';
import path from 'node:path';
import type { Command } from './command.js';
import { UsageError } from './command.js';
import { withAnalytics } from './cli-analytics.js';
import type { RangeFile } from '../analytics/ingest/ai-user-agents/published-lists.js';

/** The `.json` files of a folder, each dated by `retrieved` or else by its modification time (a download's time). */
function readRangeFiles(dir: string, retrieved: string | undefined): RangeFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch (err) {
    throw new UsageError(`cannot read ${dir} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!names.length) throw new UsageError(`${dir} holds no .json files`);
  return names.sort().map((name) => {
    const file = path.join(dir, name);
    return {
      name,
      text: fs.readFileSync(file, 'utf8'),
      retrievedAt: new Date(retrieved ?? fs.statSync(file).mtimeMs).toISOString(),
    };
  });
}

/**
 * `scribe ranges import`: downloaded AI agent range lists, and key directory snapshots (key-directories.json's
 * format), become the copies every replica uses.
 */
export const rangesCommands: Record<string, Command> = {
  'ranges import': {
    usage: 'ranges import [--retrieved <ISO time>] <dir>',
    summary:
      "Keeps downloaded AI agent range lists (a crawlers.json snapshot and/or operators' own files such as gptbot.json) as the copies every replica uses, dated by --retrieved or each file's modification time.",
    options: { retrieved: { type: 'string' } },
    async run({ config, values, positionals, db, clock, io }) {
      const [dir] = positionals;
      if (!dir || positionals.length > 1) throw new UsageError('give one folder of downloaded range list files');
      const retrieved = values.retrieved;
      if (retrieved !== undefined && (typeof retrieved !== 'string' || Number.isNaN(Date.parse(retrieved))))
        throw new UsageError('--retrieved must be an ISO time, e.g. 2026-11-24T09:00:00Z');
      const files = readRangeFiles(dir, retrieved);
      const database = await db();
      await withAnalytics({ config, clock }, database, async (analytics) => {
        const { ranges: imported, directories } = await analytics.importRangesAndDirectories(files);
        for (const d of directories)
          io.out(
            `${d.outcome === 'imported' ? 'imported' : 'skipped '}  ${d.url}: ${d.keys} keys, retrieved ${d.retrievedAt}${d.outcome === 'imported' ? '' : ` (${d.outcome})`}`,
          );
        for (const r of imported)
          io.out(
            `${r.outcome === 'imported' ? 'imported' : 'skipped '}  ${r.url}: ${r.prefixes} prefixes, retrieved ${r.retrievedAt}${r.outcome === 'imported' ? '' : ` (${r.outcome})`}`,
          );
        const now = clock().getTime();
        const maxAgeDays = config.analytics.aiRanges?.maxAgeDays ?? 30;
        for (const { url, ageSeconds } of analytics.ranges.ages(now))
          if (!(ageSeconds <= maxAgeDays * 86_400))
            io.out(
              `stale     ${url}: ${Number.isFinite(ageSeconds) ? `${Math.floor(ageSeconds / 86_400)} days old` : 'never fetched'} (its agents stay unverifiable)`,
            );
      });
    },
  },
};
