import fs from 'node:fs';
import { buildRanges } from '../../scripts/update-ai-ranges.js';
import { copiesFromFiles, LISTS } from '../../src/analytics/ingest/ai-user-agents/published-lists.js';
import { classifyUserAgent } from '../../src/analytics/ingest/classify-user-agent.js';
import type { RangesSource } from '../../src/analytics/ingest/verify-agent.js';

const read = (name: string) =>
  fs.readFileSync(new URL(`../../src/analytics/ingest/ai-user-agents/${name}`, import.meta.url), 'utf8');

/** The inputs ai-ranges.json was built from, as its SOURCE.md files date them. */
const SHIPPED_INPUTS = [
  { name: 'crawlers.json', text: read('crawlers.json'), retrievedAt: '2026-08-21T11:21:00.000Z' },
  ...['gptbot', 'searchbot', 'chatgpt-user'].map((n) => ({
    name: `openai/${n}.json`,
    text: read(`openai/${n}.json`),
    retrievedAt: '2026-05-11T00:00:00.000Z',
  })),
];

describe('the shipped range lists', () => {
  const shipped = (JSON.parse(read('ai-ranges.json')) as { sources: RangesSource[] }).sources;

  it('are exactly what the updater makes of the shipped snapshot files', () => {
    expect(shipped).toEqual(buildRanges(SHIPPED_INPUTS));
  });

  it('name only agents Scribe counts as AI, and record each list’s authority and date', () => {
    for (const source of shipped)
      for (const agent of source.agents)
        expect([agent, classifyUserAgent(`Mozilla/5.0 (compatible; ${agent}/1.0)`)]).toEqual([
          agent,
          expect.objectContaining({ class: 'ai', agent }),
        ]);
    const meta = shipped.find((s) => s.operator === 'Meta')!;
    expect(meta).toMatchObject({ authoritative: false, refresh: false });
    const amazon = shipped.find((s) => s.operator === 'Amazon')!;
    expect(amazon).toMatchObject({ authoritative: true, refresh: false, rdnsPatterns: ['*.crawl.amazonbot.amazon'] });
    for (const source of shipped.filter((s) => s.prefixes.length))
      expect([source.url, source.retrievedAt]).toEqual([source.url, '2026-08-21T11:21:00.000Z']);
    // lists the snapshot lacks ship empty, leaving their agents unverifiable until a refresh
    expect(shipped.find((s) => s.operator === 'Mistral')).toMatchObject({ prefixes: [], retrievedAt: null });
  });

  it('take each list from its newest copy, and map an operator file to its list by name', () => {
    const newer = { ...SHIPPED_INPUTS[1], retrievedAt: '2026-09-01T00:00:00.000Z' };
    const built = buildRanges([...SHIPPED_INPUTS, newer]);
    const gptbot = built.find((s) => s.url === 'https://openai.com/gptbot.json')!;
    expect(gptbot).toMatchObject({
      retrievedAt: '2026-09-01T00:00:00.000Z',
      creationTime: '2025-10-30T11:00:00.000000',
    });
    expect(() => copiesFromFiles([{ name: 'dir/unknown.json', text: '{}', retrievedAt: newer.retrievedAt }])).toThrow(
      'no published list is named unknown.json',
    );
    const ccbot = copiesFromFiles([
      { name: 'ccbot.json', text: '{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}', retrievedAt: newer.retrievedAt },
    ]);
    expect(ccbot).toEqual([
      {
        url: 'https://index.commoncrawl.org/ccbot.json',
        creationTime: null,
        prefixes: ['192.0.2.0/24'],
        retrievedAt: newer.retrievedAt,
        authoritative: true,
      },
    ]);
  });

  it('list every URL once', () => {
    expect(new Set(LISTS.map((l) => l.url)).size).toBe(LISTS.length);
  });
});
