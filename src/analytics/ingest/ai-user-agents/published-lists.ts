import path from 'node:path';
import type { RangesSource } from '../verify-agent.js';
import { isSnapshot, parsePublishedRanges, parseSnapshot, type PublishedList } from './parse-range-files.js';

/**
 * What each operator publishes (see crawlers.SOURCE.md): one entry per list, the AI agents of ai-agents.json it
 * vouches for, the snapshot service it is taken from, and the reverse-DNS names the operator documents. Google's
 * user-triggered fetchers resolve to `*.gae.googleusercontent.com` (the snapshot's `*.googleusercontent.com` would
 * also match any Google Cloud customer's machine).
 */
export const LISTS: (Omit<RangesSource, 'creationTime' | 'retrievedAt' | 'prefixes'> & { snapshot?: string })[] = [
  { url: 'https://openai.com/gptbot.json', operator: 'OpenAI', agents: ['GPTBot'], snapshot: 'GPTBot' },
  {
    url: 'https://openai.com/searchbot.json',
    operator: 'OpenAI',
    agents: ['OAI-SearchBot'],
    snapshot: 'OAI-SearchBot',
  },
  {
    url: 'https://openai.com/chatgpt-user.json',
    operator: 'OpenAI',
    agents: ['ChatGPT-User'],
    snapshot: 'ChatGPT-User',
  },
  {
    url: 'https://claude.com/crawling/bots.json',
    operator: 'Anthropic',
    agents: ['ClaudeBot', 'Claude-User', 'Claude-SearchBot'],
    snapshot: 'ClaudeBot',
  },
  // the snapshot merges Perplexity's two lists into one service: both start from that union
  {
    url: 'https://www.perplexity.com/perplexitybot.json',
    operator: 'Perplexity',
    agents: ['PerplexityBot'],
    snapshot: 'PerplexityBot',
  },
  {
    url: 'https://www.perplexity.com/perplexity-user.json',
    operator: 'Perplexity',
    agents: ['Perplexity-User'],
    snapshot: 'PerplexityBot',
  },
  {
    url: 'https://search.developer.apple.com/applebot.json',
    operator: 'Apple',
    agents: ['Applebot'],
    snapshot: 'Applebot',
    rdnsPatterns: ['*.applebot.apple.com'],
  },
  {
    url: 'https://index.commoncrawl.org/ccbot.json',
    operator: 'Common Crawl',
    agents: ['CCBot'],
    snapshot: 'Common Crawl',
    rdnsPatterns: ['*.crawl.commoncrawl.org'],
  },
  {
    url: 'https://developers.google.com/static/crawling/ipranges/common-crawlers.json',
    operator: 'Google',
    agents: ['GoogleOther', 'GoogleOther-Image', 'GoogleOther-Video'],
    snapshot: 'Googlebot',
    rdnsPatterns: ['crawl-*.googlebot.com', 'geo-crawl-*.geo.googlebot.com', '*.google.com'],
  },
  {
    url: 'https://developers.google.com/static/crawling/ipranges/special-crawlers.json',
    operator: 'Google',
    agents: ['Google-CloudVertexBot'],
    snapshot: 'Google (special)',
    rdnsPatterns: ['*.googlebot.com', '*.google.com'],
  },
  {
    url: 'https://developers.google.com/static/crawling/ipranges/user-triggered-fetchers.json',
    operator: 'Google',
    agents: ['NotebookLM', 'Google-NotebookLM', 'GoogleAgent-Mariner'],
    snapshot: 'Google (user-triggered)',
    rdnsPatterns: ['*.gae.googleusercontent.com', '*.google.com'],
  },
  {
    url: 'https://developers.google.com/static/crawling/ipranges/user-triggered-fetchers-google.json',
    operator: 'Google',
    agents: ['NotebookLM', 'Google-NotebookLM', 'GoogleAgent-Mariner'],
    rdnsPatterns: ['*.gae.googleusercontent.com', '*.google.com'],
  },
  // the snapshot merges DuckDuckBot's and DuckAssistBot's lists; only DuckAssistBot is an AI agent
  {
    url: 'https://duckduckgo.com/duckassistbot.json',
    operator: 'DuckDuckGo',
    agents: ['DuckAssistBot'],
    snapshot: 'DuckDuckBot',
  },
  { url: 'https://mistral.ai/mistralai-user-ips.json', operator: 'Mistral', agents: ['MistralAI-User'] },
  // an HTML page, not refreshed: Amazon's crawlers are confirmed by reverse DNS once the snapshot is stale
  {
    url: 'https://developer.amazon.com/amazonbot/ip-addresses/',
    operator: 'Amazon',
    agents: ['Amazonbot'],
    refresh: false,
    snapshot: 'Amazonbot',
    rdnsPatterns: ['*.crawl.amazonbot.amazon'],
  },
  // Meta's whole network (its ASN), not its crawlers: never verifies a view, kept to say so
  {
    url: 'https://raw.githubusercontent.com/ipverse/as-ip-blocks/refs/heads/master/as/32934/aggregated.json',
    operator: 'Meta',
    agents: ['meta-externalagent', 'meta-externalfetcher', 'FacebookBot'],
    refresh: false,
    snapshot: 'Meta-ExternalAgent',
  },
];

/** One downloaded file: its text, the name it was saved under, and when it was known current. */
export interface RangeFile {
  name: string;
  text: string;
  retrievedAt: string;
}

/** A list's new copy, from a snapshot or from the operator's own file. */
export interface ListCopy extends PublishedList {
  url: string;
  retrievedAt: string;
  authoritative: boolean;
}

/** Every list copy the files hold: a snapshot gives each list it has, an operator file its one list (by file name). */
export function copiesFromFiles(files: RangeFile[]): ListCopy[] {
  const copies: ListCopy[] = [];
  for (const file of files) {
    if (isSnapshot(file.text)) {
      const services = new Map(parseSnapshot(file.text).map((s) => [s.name, s]));
      for (const list of LISTS) {
        const service = list.snapshot ? services.get(list.snapshot) : undefined;
        if (!service?.prefixes.length) continue;
        copies.push({
          url: list.url,
          creationTime: service.lastChangedAt,
          prefixes: service.prefixes,
          retrievedAt: file.retrievedAt,
          authoritative: service.authoritative,
        });
      }
      continue;
    }
    const base = path.basename(file.name);
    const list = LISTS.find((l) => l.refresh !== false && path.posix.basename(new URL(l.url).pathname) === base);
    if (!list) throw new Error(`no published list is named ${base}`);
    copies.push({
      url: list.url,
      ...parsePublishedRanges(file.text),
      retrievedAt: file.retrievedAt,
      authoritative: true,
    });
  }
  return copies;
}
