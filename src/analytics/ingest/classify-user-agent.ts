import fs from 'node:fs';
import { isbotMatch } from 'isbot';

export type AiKind = 'crawler' | 'search' | 'assistant' | 'agent';

export type Classification =
  | { class: 'human' }
  | { class: 'ai'; agent: string; aiKind: AiKind }
  | { class: 'bot'; agent: string };

interface AgentEntry {
  name: string;
  kind: AiKind;
  operator?: string;
}

const DATA = new URL('./ai-user-agents/ai-agents.json', import.meta.url);
const agents = (JSON.parse(fs.readFileSync(DATA, 'utf8')) as { agents: AgentEntry[] }).agents;
const byName = new Map(agents.map((a) => [a.name.toLowerCase(), a]));
// Whole-word: a name must not continue into a neighbouring token character, so "GoogleOther" does not match inside
// "GoogleOther-Image", nor "OpenAI" inside the "openai.com" URL every OpenAI agent carries. Longer names first.
const WORD = 'A-Za-z0-9_.\\-';
const escaped = [...byName.values()]
  .map((a) => a.name)
  .sort((a, b) => b.length - a.length)
  .map((n) => n.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'));
const AI_PATTERN = new RegExp(`(?<![${WORD}])(?:${escaped.join('|')})(?![${WORD}])`, 'i');

// A name may also begin a longer product token ("AwarioSmartBot/1.0", "amazon-kendra-<customer id>"). Tokens start
// the string or follow a space, "(", ";" or ","; URLs and e-mail addresses ("+https://openai.com/…") never do.
const TOKEN_START = /(?:^|[\s(;,])([^\s/;(),]+)/g;
// Longest first, so GoogleOther-Image is never read as GoogleOther; names with spaces span tokens and match whole only.
const prefixNames = [...byName.values()]
  .filter((a) => !/\s/.test(a.name))
  .sort((a, b) => b.name.length - a.name.length);

/** The listed agent whose name begins a product token of `ua` where a new word of the token starts. */
function agentStartingToken(ua: string): AgentEntry | undefined {
  for (const [, token] of ua.matchAll(TOKEN_START)) {
    const lower = token.toLowerCase();
    const entry = prefixNames.find((a) => lower.startsWith(a.name.toLowerCase()) && wordStartsAt(token, a.name.length));
    if (entry) return entry;
  }
  return undefined;
}

/**
 * Whether a new word starts at `at` inside a token: after a "-" or "_", or at a capital following a lower-case
 * letter ("Awario|SmartBot"). A name running on in lower case ("Devin" in "Devinci") or a capital after a capital
 * ("YaK" in "YaKBrowser") is part of another word, and a "." starts a domain ("openai.com"), not a word.
 */
function wordStartsAt(token: string, at: number): boolean {
  const next = token[at];
  if (next === '-' || next === '_') return at + 1 < token.length;
  return /[a-z]/.test(token[at - 1]) && /[A-Z]/.test(next);
}

/** The kind of a listed AI agent, by its name as stored with its page views. */
export function aiKindOf(agent: string): AiKind | undefined {
  return byName.get(agent.toLowerCase())?.kind;
}

/** The operator of a listed agent as the agent list names it; "unknown" for unlisted or unattributed agents. */
export function operatorOf(agent: string): string {
  return byName.get(agent.toLowerCase())?.operator ?? 'unknown';
}

const cache = new Map<string, Classification>();
const CACHE_LIMIT = 20_000;

/**
 * human, ai (an agent from the curated list in ai-user-agents/ai-agents.json) or bot (anything else automated, by isbot).
 * The AI list is checked first: isbot also knows many AI crawlers but cannot tell them apart from other bots.
 */
export function classifyUserAgent(userAgent: string | undefined | null): Classification {
  const ua = (userAgent ?? '').trim();
  if (!ua) return { class: 'bot', agent: 'no user agent' };
  const cached = cache.get(ua);
  if (cached) return cached;
  const result = classifyUncached(ua);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(ua, result);
  return result;
}

function classifyUncached(ua: string): Classification {
  const whole = AI_PATTERN.exec(ua);
  const entry = whole ? byName.get(whole[0].toLowerCase())! : agentStartingToken(ua);
  if (entry) return { class: 'ai', agent: entry.name, aiKind: entry.kind };
  const bot = isbotMatch(ua);
  if (bot !== null) return { class: 'bot', agent: botName(ua, bot) };
  return { class: 'human' };
}

/** The product token isbot's match sits in ("bingbot" for the match "bot" in "bingbot/2.0"). */
function botName(ua: string, match: string): string {
  const at = ua.toLowerCase().indexOf(match.toLowerCase());
  if (at < 0) return match.slice(0, 100);
  let start = at;
  let end = at + match.length;
  while (start > 0 && /[\w.-]/.test(ua[start - 1])) start--;
  while (end < ua.length && /[\w.-]/.test(ua[end])) end++;
  return ua.slice(start, end).slice(0, 100);
}
