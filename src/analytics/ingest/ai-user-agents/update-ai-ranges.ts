/**
 * Rewrites src/analytics/ingest/ai-user-agents/ai-ranges.json from copies of the operators' published range files (no network:
 * download them first). Usage:
 *   curl -sO https://openai.com/gptbot.json   # … each `url` listed in ai-ranges.json
 *   npx tsx src/analytics/ingest/ai-user-agents/update-ai-ranges.ts <url>=<downloaded file> …
 * e.g. `https://openai.com/gptbot.json=gptbot.json`. Each file is the operators' common format
 * `{"creationTime", "prefixes": [{"ipv4Prefix"} | {"ipv6Prefix"}]}`. Sources not named keep their ranges; review the
 * diff, run the analytics tests, commit.
 */
import fs from 'node:fs';
import net from 'node:net';
import type { RangesSource } from '../verify-agent.js';

const DATA = new URL('./ai-ranges.json', import.meta.url);

export function parsePublishedRanges(text: string): { creationTime: string | null; prefixes: string[] } {
  const parsed = JSON.parse(text) as {
    creationTime?: string;
    prefixes?: { ipv4Prefix?: string; ipv6Prefix?: string }[];
  };
  if (!Array.isArray(parsed.prefixes)) throw new Error('no "prefixes" array');
  const prefixes = parsed.prefixes.map((p) => p.ipv4Prefix ?? p.ipv6Prefix ?? '');
  for (const prefix of prefixes) {
    const [address, bits] = prefix.split('/');
    const max = net.isIPv4(address) ? 32 : net.isIPv6(address) ? 128 : -1;
    if (max < 0 || !/^\d+$/.test(bits ?? '') || Number(bits) > max)
      throw new Error(`not an IP prefix: ${JSON.stringify(prefix)}`);
  }
  return { creationTime: parsed.creationTime ?? null, prefixes };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const data = JSON.parse(fs.readFileSync(DATA, 'utf8')) as { about: string; sources: RangesSource[] };
  for (const arg of process.argv.slice(2)) {
    const at = arg.lastIndexOf('=');
    const url = arg.slice(0, at);
    const source = data.sources.find((s) => s.url === url);
    if (!source) throw new Error(`${url} is not a source in ai-ranges.json`);
    Object.assign(source, parsePublishedRanges(fs.readFileSync(arg.slice(at + 1), 'utf8')));
  }
  fs.writeFileSync(DATA, `${JSON.stringify(data, null, 2)}\n`);
}
