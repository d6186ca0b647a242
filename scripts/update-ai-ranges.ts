/**
 * Rewrites src/analytics/ingest/ai-user-agents/ai-ranges.json (the lists Scribe ships) from downloaded files, no
 * network. Usage:
 *   npx tsx scripts/update-ai-ranges.ts <file>@<retrieved> …
 * where each file is either an ipverse/bot-ip-blocks `crawlers.json` (every list it has) or one operator's list in
 * their common format, named as its URL names it (`gptbot.json`, `bots.json`, `ccbot.json` …), and `<retrieved>` the
 * ISO time the file was known current (its commit or download time). For each list the newest copy wins. The shipped
 * snapshot is rebuilt with:
 *   npx tsx scripts/update-ai-ranges.ts \
 *     src/analytics/ingest/ai-user-agents/crawlers.json@2026-08-21T11:21:00Z \
 *     src/analytics/ingest/ai-user-agents/openai/{gptbot,searchbot,chatgpt-user}.json@2026-05-11T00:00:00Z
 * Review the diff, run the analytics tests, commit. (At run time a deployment refreshes the lists itself; to load
 * downloaded files into a running deployment's database use `scribe ranges import <dir>` instead.)
 */
import fs from 'node:fs';
import type { RangesSource } from '../src/analytics/ingest/verify-agent.js';
import {
  copiesFromFiles,
  LISTS,
  type ListCopy,
  type RangeFile,
} from '../src/analytics/ingest/ai-user-agents/published-lists.js';

/** The shipped lists: every entry of LISTS, with the newest copy the files give it (none: no prefixes). */
export function buildRanges(files: RangeFile[]): RangesSource[] {
  const newest = new Map<string, ListCopy>();
  for (const copy of copiesFromFiles(files)) {
    const held = newest.get(copy.url);
    if (!held || Date.parse(copy.retrievedAt) > Date.parse(held.retrievedAt)) newest.set(copy.url, copy);
  }
  return LISTS.map(({ snapshot: _, ...list }) => {
    const copy = newest.get(list.url);
    return {
      ...list,
      refresh: list.refresh ?? true,
      authoritative: copy?.authoritative ?? true,
      rdnsPatterns: list.rdnsPatterns ?? [],
      creationTime: copy?.creationTime ?? null,
      retrievedAt: copy?.retrievedAt ?? null,
      prefixes: copy?.prefixes ?? [],
    };
  });
}

const ABOUT =
  'Published IP ranges of AI agent operators, one entry per list. Written by ' +
  'scripts/update-ai-ranges.ts from crawlers.json and openai/*.json (see their ' +
  '*.SOURCE.md); at run time Scribe refreshes each `refresh` list from its `url` and keeps the copy in the ' +
  'database. A list older than SCRIBE_AI_RANGES_MAX_AGE_DAYS (by `retrievedAt`) or not `authoritative` never calls ' +
  'a view spoofed. See README "Verified, unverified, unverifiable".';

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const files = process.argv.slice(2).map((arg) => {
    const at = arg.lastIndexOf('@');
    if (at < 0 || Number.isNaN(Date.parse(arg.slice(at + 1)))) throw new Error(`${arg}: give <file>@<ISO time>`);
    const name = arg.slice(0, at);
    return { name, text: fs.readFileSync(name, 'utf8'), retrievedAt: new Date(arg.slice(at + 1)).toISOString() };
  });
  const sources = buildRanges(files);
  const lines = sources.map((s) => `    ${JSON.stringify(s)}`).join(',\n');
  fs.writeFileSync(
    new URL('../src/analytics/ingest/ai-user-agents/ai-ranges.json', import.meta.url),
    `{\n  "about": ${JSON.stringify(ABOUT)},\n  "sources": [\n${lines}\n  ]\n}\n`,
  );
}
