import robotsParserModule from 'robots-parser';
import { KIND } from '../store/day-sets.js';
import type { AgentView, RobotsVersion } from '../store/robots-txt.js';
import type { RobotsFetch } from '../store/robots-fetches.js';
import { isVerified, UNVERIFIED_PREFIX } from '../store/write-events.js';
import { compareCodePoints } from './compare-code-points.js';

/** robots-parser's own typings declare no call signature for its CommonJS export: its API, as its README gives it */
interface Robot {
  isDisallowed(url: string, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
}
const robotsParser = robotsParserModule as unknown as (url: string, contents: string) => Robot;

type Standing = 'verified' | 'unverified' | 'spoofed';

export interface RobotsViolations {
  views: number;
  /** the disallowed paths read, most views first (then path, host and rule in code-point order) */
  paths: { host: string; path: string; rule: string; views: number }[];
}

export interface RobotsReport {
  /** per host, the versions of robots.txt known, oldest first (when each was in force), and the last fetch */
  hosts: {
    host: string;
    versions: { hash: string; firstSeenAt: string; lastSeenAt: string }[];
    lastFetch: { at: string; status: number | null; error: string | null } | null;
  }[];
  /** per AI agent, the views of paths its robots.txt group disallowed when they were read */
  agents: ({ agent: string; views: number; fetchedRobotsTxt: boolean } & Record<Standing, RobotsViolations>)[];
  /** AI agents that asked for robots.txt (ever), and those seen in the range that never did */
  fetchedRobotsTxt: string[];
  neverFetchedRobotsTxt: string[];
}

interface Parsed {
  version: RobotsVersion;
  robot: Robot;
  lines: string[];
  /** the literal start of every Disallow pattern (up to a wildcard), or undefined when the file escapes characters */
  prefixes: string[] | undefined;
  /** the user-agent tokens its groups name, as the parser reads them: any other agent is judged by `*` */
  tokens: Set<string>;
}

/** The parser's form of a user agent: lower case, without `/version`. */
const tokenOf = (agent: string) => agent.toLowerCase().split('/')[0].trim();

/** The user-agent tokens a file's groups name. */
function groupTokens(lines: string[]): Set<string> {
  const tokens = new Set<string>();
  for (const line of lines) {
    const [field, ...rest] = line.replace(/#.*$/, '').split(':');
    if (field.trim().toLowerCase() === 'user-agent') tokens.add(tokenOf(rest.join(':')));
  }
  return tokens;
}

/**
 * Rules judged, by version and group, then by path: the same files judge the same paths on every call (bounded: the
 * groups cleared when there are too many). `null`: not disallowed.
 */
const judgedRules = new Map<string, Map<string, string | null>>();
let judgedCount = 0;
const JUDGED_MAX = 500_000;

function keepJudged(judged: Map<string, string | null>, path: string, rule: string | null): void {
  if (++judgedCount > JUDGED_MAX) {
    judgedRules.clear();
    judgedCount = 0;
  }
  judged.set(path, rule);
}

/**
 * The literal starts of a file's Disallow patterns: a path that starts with none of them matches no Disallow rule
 * of any group (a pattern matches from the path's first character), so the parser need not be asked. Undefined when
 * a pattern holds `%` or a character outside ASCII: the parser's encoding rules decide those.
 */
function disallowPrefixes(lines: string[]): string[] | undefined {
  const prefixes = new Set<string>();
  for (const line of lines) {
    const [field, ...rest] = line.replace(/#.*$/, '').split(':');
    if (field.trim().toLowerCase() !== 'disallow') continue;
    const pattern = rest.join(':').trim();
    if (!pattern) continue;
    if (!/^[\x21-\x7e]*$/.test(pattern) || pattern.includes('%')) return undefined;
    prefixes.add(pattern.split(/[*$]/)[0]);
  }
  return [...prefixes];
}

/** A path the parser reads as it is: URL-safe characters only, no query, no dot segments (nothing re-encoded). */
const PLAIN_PATH = /^\/[A-Za-z0-9;,/:@&=+$\-_.!~*'()]*$/;
const DOT_SEGMENT = /\/\.\.?(\/|$)/;

/** Whether the parser must judge the path: it is not plain, or a Disallow pattern could match it. */
const mayBeDisallowed = (parsed: Parsed, path: string) =>
  parsed.prefixes === undefined ||
  !PLAIN_PATH.test(path) ||
  DOT_SEGMENT.test(path) ||
  parsed.prefixes.some((prefix) => path.startsWith(prefix));

/**
 * Which AI views read paths robots.txt disallowed for the agent, judged by the version in force on the view's host
 * when it was read (the latest first seen by then; none before the first: nothing is disallowed). An agent is matched
 * by its name as a robots.txt user-agent token (robots-parser's rules: the most specific group, `*` otherwise).
 * Views are split by standing: verified, unverified (nothing could tell) and spoofed user agents.
 */
export function aiRobots(params: {
  versions: RobotsVersion[];
  views: AgentView[];
  readers: { agent: string }[];
  fetches?: RobotsFetch[];
}): RobotsReport {
  const byHost = new Map<string, Parsed[]>();
  for (const version of params.versions) {
    const list = byHost.get(version.host) ?? [];
    // lines as the parser numbers them
    const lines = version.content.split(/\r\n|\r|\n/);
    list.push({
      version,
      robot: robotsParser(`https://${version.host}/robots.txt`, version.content),
      lines,
      prefixes: disallowPrefixes(lines),
      tokens: groupTokens(lines),
    });
    byHost.set(version.host, list);
  }
  const agents = new Map<string, AgentEntry>();
  // views come in runs of one agent, standing and time (the counts are per cell and piece of the range): what the
  // run shares — its entry, and per host the version in force and the rules judged for the agent's group — is
  // looked up once per run
  let context: ViewContext | undefined;
  for (const view of params.views) {
    if (
      !context ||
      context.agent !== view.agent ||
      context.kind !== view.kind ||
      context.verification !== view.verification ||
      context.ts !== view.ts
    )
      context = viewContext(view, byHost, agents);
    const { name, standing, entry } = context;
    const weight = view.views ?? 1;
    entry.views += weight;
    for (const { host, parsed, judged, rows } of context.hosts) {
      let rule = judged.get(view.path);
      if (rule === undefined) {
        const url = `https://${host}${view.path}`;
        rule =
          mayBeDisallowed(parsed, view.path) && parsed.robot.isDisallowed(url, name)
            ? (parsed.lines[parsed.robot.getMatchingLineNumber(url, name) - 1] ?? '').trim()
            : null;
        keepJudged(judged, view.path, rule);
      }
      if (rule === null) continue;
      const violations = entry[standing];
      violations.views += weight;
      const rowKey = `${view.path}\0${rule}`;
      const row = rows.get(rowKey);
      if (row) row.views += weight;
      else {
        const added = { host, path: view.path, rule, views: weight };
        rows.set(rowKey, added);
        violations.paths.push(added);
      }
    }
  }
  const fetched = new Set(params.readers.map((r) => r.agent));
  for (const entry of agents.values()) {
    entry.fetchedRobotsTxt = fetched.has(entry.agent);
    for (const standing of ['verified', 'unverified', 'spoofed'] as const)
      entry[standing].paths.sort(
        (a, b) =>
          b.views - a.views ||
          compareCodePoints(a.path, b.path) ||
          compareCodePoints(a.host, b.host) ||
          compareCodePoints(a.rule, b.rule),
      );
  }
  const fetches = new Map((params.fetches ?? []).filter((f) => f.checkedAt > 0).map((f) => [f.host, f]));
  const hosts = [...new Set([...byHost.keys(), ...fetches.keys()])].sort(compareCodePoints);
  return {
    hosts: hosts.map((host) => {
      const fetch = fetches.get(host);
      return {
        host,
        versions: (byHost.get(host) ?? []).map(({ version }) => ({
          hash: version.hash,
          firstSeenAt: new Date(version.firstSeenAt).toISOString(),
          lastSeenAt: new Date(version.lastSeenAt).toISOString(),
        })),
        lastFetch: fetch
          ? { at: new Date(fetch.checkedAt).toISOString(), status: fetch.status, error: fetch.error }
          : null,
      };
    }),
    agents: [...agents.values()]
      .map(({ rows: _rows, ...entry }) => entry)
      .sort(
        (a, b) =>
          b.verified.views +
            b.unverified.views +
            b.spoofed.views -
            (a.verified.views + a.unverified.views + a.spoofed.views) || compareCodePoints(a.agent, b.agent),
      ),
    fetchedRobotsTxt: [...fetched].sort(compareCodePoints),
    neverFetchedRobotsTxt: [...agents.keys()].filter((a) => !fetched.has(a)).sort(compareCodePoints),
  };
}

const none = (): RobotsViolations => ({ views: 0, paths: [] });

type AgentEntry = RobotsReport['agents'][number] & {
  /** a standing's rows by host, then by path and rule */
  rows: Map<string, Map<string, RobotsViolations['paths'][number]>>;
};

/** What a run of views of one agent, standing and time shares. */
interface ViewContext {
  agent: string;
  kind: number;
  verification: number | null;
  ts: number;
  name: string;
  standing: Standing;
  entry: AgentEntry;
  /** per host with a version in force: the version, its judgements for the agent's group, the standing's rows */
  hosts: {
    host: string;
    parsed: Parsed;
    judged: Map<string, string | null>;
    rows: Map<string, RobotsViolations['paths'][number]>;
  }[];
}

function viewContext(view: AgentView, byHost: Map<string, Parsed[]>, agents: Map<string, AgentEntry>): ViewContext {
  const spoofed = view.kind === KIND.bot;
  const name = spoofed ? view.agent.slice(UNVERIFIED_PREFIX.length) : view.agent || 'unknown';
  const standing: Standing = spoofed ? 'spoofed' : isVerified(view.verification) ? 'verified' : 'unverified';
  let entry = agents.get(name);
  if (!entry) {
    entry = {
      agent: name,
      views: 0,
      fetchedRobotsTxt: false,
      verified: none(),
      unverified: none(),
      spoofed: none(),
      rows: new Map(),
    };
    agents.set(name, entry);
  }
  const token = tokenOf(name);
  const hosts: ViewContext['hosts'] = [];
  for (const [host, versions] of byHost) {
    const parsed = inForce(versions, view.ts);
    if (!parsed) continue;
    // agents no group names are all judged by `*`: one judgement for them all
    const group = parsed.tokens.has(token) ? token : '*';
    const judgedKey = `${parsed.version.hash}\0${group}`;
    let judged = judgedRules.get(judgedKey);
    if (!judged) judgedRules.set(judgedKey, (judged = new Map()));
    const rowsKey = `${standing}\0${host}`;
    let rows = entry.rows.get(rowsKey);
    if (!rows) entry.rows.set(rowsKey, (rows = new Map()));
    hosts.push({ host, parsed, judged, rows });
  }
  return {
    agent: view.agent,
    kind: view.kind,
    verification: view.verification,
    ts: view.ts,
    name,
    standing,
    entry,
    hosts,
  };
}

/** The version first seen last at or before `ts`, by binary search over versions oldest first. */
function inForce(versions: Parsed[], ts: number): Parsed | undefined {
  let lo = 0;
  let hi = versions.length - 1;
  let found: Parsed | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (versions[mid].version.firstSeenAt <= ts) {
      found = versions[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
