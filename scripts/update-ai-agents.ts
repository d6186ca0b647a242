/**
 * Rebuilds src/analytics/ingest/ai-user-agents/ai-agents.json from an ai-robots.json (github.com/ai-robots-txt/ai.robots.txt, the
 * `robots.json` file), applying Scribe's curation below. Usage:
 *   npx tsx scripts/update-ai-agents.ts <path to ai-robots.json>
 * The vendored input is ai-robots.json beside ai-agents.json (source, commit and MIT licence in ai-robots.SOURCE.md): replace
 * it with a newer robots.json, run this on it, review the diff of ai-agents.json (new names, kinds), run the analytics
 * tests, commit both.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AiKind } from '../src/analytics/ingest/classify-user-agent.js';

interface RobotEntry {
  operator?: string;
  function?: string;
}

/** Names too generic to match whole-word in a user agent without catching browsers, editors or other bots. */
const EXCLUDED: Record<string, string> = {
  Code: 'generic word; the VS Code desktop app sends Code/<version> in its user agent',
  Operator: 'generic word; OpenAI Operator browses with an ordinary Chrome user agent',
  Spider: 'generic word; matches search-engine spiders such as "Sogou web spider"',
  facebookexternalhit: 'link-preview fetcher for shared links; counted as a bot',
  'Google-Extended': 'robots.txt token only, never sent as a user agent',
  'Applebot-Extended': 'robots.txt token only, never sent as a user agent',
};

/** Kinds the list's free-text `function` field does not make clear. */
const KINDS: Record<string, AiKind> = {
  'ChatGPT-User': 'assistant',
  'Claude-User': 'assistant',
  'Perplexity-User': 'assistant',
  'MistralAI-User': 'assistant',
  DuckAssistBot: 'assistant',
  'cohere-ai': 'assistant',
  'OAI-SearchBot': 'search',
  PerplexityBot: 'search',
  'Claude-SearchBot': 'search',
  YouBot: 'search',
  PetalBot: 'search',
  Applebot: 'search',
  GPTBot: 'crawler',
  ClaudeBot: 'crawler',
  Amazonbot: 'crawler',
  'Claude-Code': 'agent',
};

function kindFromFunction(text: string): AiKind {
  if (/\bsearch/i.test(text)) return 'search';
  if (/undocumented/i.test(text)) return 'crawler';
  if (/agent/i.test(text)) return 'agent';
  if (/assistant|user prompt|user-initiated|based on user/i.test(text)) return 'assistant';
  return 'crawler';
}

function plainOperator(text: string | undefined): string | undefined {
  if (!text || /^unclear/i.test(text)) return undefined;
  return text.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').trim();
}

export function curate(robots: Record<string, RobotEntry>) {
  const agents = new Map<string, { name: string; kind: AiKind; operator?: string }>();
  for (const [rawName, entry] of Object.entries(robots)) {
    // "iaskspider/2.0", "Brightbot 1.0": the version is not part of the token a user agent carries
    const name = rawName.replace(/[/ ]\d+(\.\d+)*$/, '').trim();
    if (EXCLUDED[name] || agents.has(name.toLowerCase())) continue;
    agents.set(name.toLowerCase(), {
      name,
      kind: KINDS[name] ?? kindFromFunction(entry.function ?? ''),
      ...(plainOperator(entry.operator) ? { operator: plainOperator(entry.operator) } : {}),
    });
  }
  return {
    source: 'https://github.com/ai-robots-txt/ai.robots.txt (robots.json), curated by scripts/update-ai-agents.ts',
    agents: [...agents.values()].sort((a, b) => a.name.localeCompare(b.name, 'en')),
    excluded: Object.entries(EXCLUDED).map(([name, reason]) => ({ name, reason })),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const input = process.argv[2];
  if (!input) {
    console.error('usage: npx tsx scripts/update-ai-agents.ts <ai-robots.json>');
    process.exit(1);
  }
  const out = path.join(import.meta.dirname, '../src/analytics/ingest/ai-user-agents/ai-agents.json');
  const curated = curate(JSON.parse(fs.readFileSync(input, 'utf8')) as Record<string, RobotEntry>);
  fs.writeFileSync(out, `${JSON.stringify(curated, null, 2)}\n`);
  console.log(`wrote ${curated.agents.length} agents to ${path.relative(process.cwd(), out)}`);
}
