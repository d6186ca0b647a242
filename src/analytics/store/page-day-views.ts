import { KIND } from './day-sets.js';
import { VIA_PREFIX } from './write-events.js';

/**
 * One page's counted views of one UTC day, by class and in time order, as the outcome windows cut them: from the raw
 * events (read-events.ts dayEvents) or the page-days rollup (rollups/page-days.ts), the same either way.
 */

/** Views of one page by one class within a day, by time: `visitors[i]` viewed `at[i]` ms after the day began. */
export interface TimedVisitors {
  at: Uint32Array;
  visitors: Uint32Array;
}

/** One AI agent's views (its name as stored, '' when a view named none). */
export interface AgentViews extends TimedVisitors {
  agent: string;
}

/**
 * A page's views of a day: its humans, the humans an AI assistant's answer sent (also among `human`), and each AI
 * agent's views apart (ordered by name), so AI visitors can be split by the agent's purpose as read, not as folded.
 */
export interface PageDayViews {
  human: TimedVisitors;
  referred: TimedVisitors;
  ai: AgentViews[];
}

/** A UTC day's counted views of some pages. */
export interface DayEvents {
  /** when the day began (epoch ms) */
  start: number;
  pages: Map<number, PageDayViews>;
  /** what the pages' arrays take in memory (pageViewsBytes of each) */
  bytes: number;
}

/** The first index of the ascending `sorted` whose value is at least `value` (its length when none is). */
export function lowerBound(sorted: ArrayLike<number>, value: number): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Every class's views of a page's day, AI agent by agent. */
export const columnsOf = (views: PageDayViews): TimedVisitors[] => [views.human, views.referred, ...views.ai];

/** What a page's views of a day take in memory. */
export function pageViewsBytes(views: PageDayViews): number {
  return columnsOf(views).reduce((n, c) => n + c.at.length * 8, 96 + 48 * views.ai.length);
}

/** A class's views while they are added: times (ms into the day) and visitors, in the order added. */
interface Pending {
  at: number[];
  visitors: number[];
}

/** A page's views of a day while they are added, by class as PageDayViews holds them. */
export interface PendingViews {
  human: Pending;
  referred: Pending;
  ai: Map<string, Pending>;
}

export const pendingViews = (): PendingViews => ({
  human: { at: [], visitors: [] },
  referred: { at: [], visitors: [] },
  ai: new Map(),
});

/** Adds a counted view (a human's or an AI agent's; other bots are not counted) `at` ms into its day. */
export function addView(views: PendingViews, kind: number, agent: string | null, at: number, visitor: number): void {
  let column: Pending;
  if (kind === KIND.ai) {
    const name = agent ?? '';
    const found = views.ai.get(name);
    column = found ?? { at: [], visitors: [] };
    if (!found) views.ai.set(name, column);
  } else {
    column = views.human;
    if (agent?.startsWith(VIA_PREFIX)) {
      views.referred.at.push(at);
      views.referred.visitors.push(visitor);
    }
  }
  column.at.push(at);
  column.visitors.push(visitor);
}

/** The added views merged into the stored ones (none: the added alone), each class in time order. */
export function packViews(pending: PendingViews, stored?: PageDayViews): PageDayViews {
  const storedAgent = new Map((stored?.ai ?? []).map((a) => [a.agent, a]));
  // by name, so the fold and the raw read give a day's agents in the same order
  const agents = [...new Set([...storedAgent.keys(), ...pending.ai.keys()])].sort();
  return {
    human: mergeTimed(stored?.human, pending.human),
    referred: mergeTimed(stored?.referred, pending.referred),
    ai: agents.map((agent) => ({
      agent,
      ...mergeTimed(storedAgent.get(agent), pending.ai.get(agent) ?? { at: [], visitors: [] }),
    })),
  };
}

/** One class's views in time order, with `pending` merged in (sorted first unless it is in time order). */
export function mergeTimed(stored: TimedVisitors | undefined, pending: Pending): TimedVisitors {
  // a chunk comes in id order, which is time order unless views arrived late: then no sort is needed
  let inOrder = true;
  for (let i = 1; i < pending.at.length && inOrder; i++) inOrder = pending.at[i - 1] <= pending.at[i];
  const order = inOrder ? undefined : pending.at.map((_, i) => i).sort((a, b) => pending.at[a] - pending.at[b]);
  const at = order ? order.map((i) => pending.at[i]) : pending.at;
  const visitors = order ? order.map((i) => pending.visitors[i]) : pending.visitors;
  const old = stored ?? { at: new Uint32Array(0), visitors: new Uint32Array(0) };
  const n = old.at.length + at.length;
  const out = { at: new Uint32Array(n), visitors: new Uint32Array(n) };
  // the stored views before the first new one, copied at once (new views of a day mostly come after the stored)
  const before = at.length ? lowerBound(old.at, at[0] + 1) : old.at.length;
  out.at.set(old.at.subarray(0, before));
  out.visitors.set(old.visitors.subarray(0, before));
  let [i, j] = [before, 0];
  for (let k = before; k < n; k++) {
    if (j >= at.length || (i < old.at.length && old.at[i] <= at[j])) {
      out.at[k] = old.at[i];
      out.visitors[k] = old.visitors[i++];
    } else {
      out.at[k] = at[j];
      out.visitors[k] = visitors[j++];
    }
  }
  return out;
}

/**
 * The first word of a packed page day: which layout follows. The layout before agents were kept (three classes'
 * lengths first) has no such word; its rows are removed by the migration that brought this one.
 */
const FORMAT = 0x70640002;
/** FORMAT, the human and referred lengths, the number of agents */
const HEADER = 4;

/**
 * A page day as stored, all little-endian uint32 words: FORMAT, the lengths of human and referred, how many agents,
 * then each agent's length and name bytes; the names (UTF-8, together padded to a word); then each class's times and
 * visitors in the order of columnsOf (times are milliseconds into the day: under 2^27).
 */
export function encodePageDay(views: PageDayViews): Buffer {
  const names = views.ai.map((a) => Buffer.from(a.agent, 'utf8'));
  const nameWords = Math.ceil(names.reduce((n, b) => n + b.length, 0) / 4);
  const columns = columnsOf(views);
  const head = HEADER + 2 * views.ai.length + nameWords;
  const words = new Uint32Array(head + columns.reduce((n, c) => n + 2 * c.at.length, 0));
  words.set([FORMAT, views.human.at.length, views.referred.at.length, views.ai.length]);
  for (const [i, a] of views.ai.entries()) words.set([a.at.length, names[i].length], HEADER + 2 * i);
  Buffer.concat(names).copy(Buffer.from(words.buffer), 4 * (HEADER + 2 * views.ai.length));
  let offset = head;
  for (const c of columns) {
    words.set(c.at, offset);
    words.set(c.visitors, offset + c.at.length);
    offset += 2 * c.at.length;
  }
  return Buffer.from(words.buffer);
}

export function decodePageDay(blob: Buffer): PageDayViews {
  const fail = () => new Error('not a page day');
  // read in place where the blob starts on a word, else copied into aligned words (a database hands blobs at any
  // offset): a list's first call decodes tens of megabytes, and each copy of them is time and garbage
  const words =
    blob.byteOffset % 4 === 0
      ? new Uint32Array(blob.buffer, blob.byteOffset, blob.length >>> 2)
      : new Uint32Array(blob.length >>> 2);
  const bytes = Buffer.from(words.buffer, words.byteOffset, words.byteLength);
  if (words.buffer !== blob.buffer) blob.copy(bytes, 0, 0, words.byteLength);
  if (blob.length % 4 !== 0 || words.length < HEADER || words[0] !== FORMAT) throw fail();
  const agents = words[3];
  if (HEADER + 2 * agents > words.length) throw fail();
  const lengths = [words[1], words[2]];
  const nameLengths: number[] = [];
  for (let i = 0; i < agents; i++) {
    lengths.push(words[HEADER + 2 * i]);
    nameLengths.push(words[HEADER + 2 * i + 1]);
  }
  let at = 4 * (HEADER + 2 * agents);
  const names = nameLengths.map((n) => {
    if (at + n > bytes.length) throw fail();
    return bytes.toString('utf8', at, (at += n));
  });
  let offset = Math.ceil(at / 4);
  const columns = lengths.map((n) => {
    if (offset + 2 * n > words.length) throw fail();
    const column = { at: words.subarray(offset, offset + n), visitors: words.subarray(offset + n, offset + 2 * n) };
    offset += 2 * n;
    return column;
  });
  if (offset !== words.length) throw fail();
  const [human, referred, ...ai] = columns;
  return { human, referred, ai: ai.map((c, i) => ({ agent: names[i], ...c })) };
}

// the words are stored as this process's typed arrays hold them: little-endian on every platform Node runs on here
if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) throw new Error('page days assume a little-endian machine');
