import fs from 'node:fs';
import net from 'node:net';
import { matchesGlob } from './ai-user-agents/parse-range-files.js';

/**
 * Whether an AI agent's request came from its operator: `verified` inside a fresh authoritative list of the
 * operator's addresses or confirmed by forward-confirmed reverse DNS, `unverified` outside a fresh authoritative list
 * and not confirmed (a spoofed user agent), `unverifiable` when nothing can tell (the operator publishes no list, its
 * list is its whole network rather than its crawlers, or the copy Scribe holds is too old to trust).
 */
export type Verification = 'verified' | 'unverified' | 'unverifiable';

/** How a view was verified: a Web Bot Auth signature, the operator's published addresses, or its reverse DNS. */
export type VerifiedBy = 'signature' | 'ip-range' | 'reverse-dns';

/** A view's outcome; `agent` when a signature named the agent its user agent did not (a browser's user agent). */
export interface AgentCheck {
  verification: Verification;
  by?: VerifiedBy;
  agent?: string;
  /** why a signature made the view spoofed */
  reason?: string;
}

/** One published list, as `ai-ranges.json` (and `SCRIBE_AI_RANGES_FILE`) holds it. */
export interface RangesSource {
  /** where the operator publishes the list: its identity, and what a refresh fetches */
  url: string;
  operator: string;
  /** Scribe's AI agent names (ai-agents.json) the list vouches for */
  agents: string[];
  /** whether `url` serves the operators' JSON format, so the list is refreshed at run time */
  refresh?: boolean;
  /** false when the list is the operator's whole network (an ASN), not its crawlers: inside proves little */
  authoritative?: boolean;
  /** host name globs of the operator's crawlers, for forward-confirmed reverse DNS (`*.googlebot.com`) */
  rdnsPatterns?: string[];
  /** the date the list itself states (`creationTime`, or when it last changed upstream) */
  creationTime: string | null;
  /** when this copy was known to be current (fetched); null: never; absent: the file's modification time */
  retrievedAt?: string | null;
  prefixes: string[];
}

const SHIPPED = new URL('./ai-user-agents/ai-ranges.json', import.meta.url);

interface CompiledList {
  source: RangesSource;
  blocks: net.BlockList;
  retrievedMs: number;
}

/** The published lists per agent name (case-insensitive), each with its age: only fresh lists can call a view spoofed. */
export class AgentRanges {
  private readonly byAgent = new Map<string, CompiledList[]>();
  readonly sources: readonly RangesSource[];

  constructor(
    sources: RangesSource[],
    private readonly params: { maxAgeMs: number; fallbackRetrievedMs?: number },
  ) {
    this.sources = sources;
    for (const source of sources) {
      const blocks = new net.BlockList();
      for (const prefix of source.prefixes) {
        const [address, bits] = prefix.split('/');
        const type = net.isIPv6(address) ? 'ipv6' : 'ipv4';
        blocks.addSubnet(address, Number(bits ?? (type === 'ipv6' ? 128 : 32)), type);
      }
      // null: never fetched; absent: a hand-made file, as old as its last modification
      const retrievedMs =
        source.retrievedAt === undefined
          ? (params.fallbackRetrievedMs ?? Number.NaN)
          : Date.parse(source.retrievedAt ?? '');
      for (const agent of source.agents) {
        const key = agent.toLowerCase();
        this.byAgent.set(key, [...(this.byAgent.get(key) ?? []), { source, blocks, retrievedMs }]);
      }
    }
  }

  /** The shipped lists, or a file in their format (whose sources without `retrievedAt` date from its modification). */
  static load(params: { file?: string; maxAgeMs: number }): AgentRanges {
    const file = params.file ?? SHIPPED;
    const text = fs.readFileSync(file, 'utf8');
    return new AgentRanges((JSON.parse(text) as { sources: RangesSource[] }).sources, {
      maxAgeMs: params.maxAgeMs,
      fallbackRetrievedMs: fs.statSync(file).mtimeMs,
    });
  }

  /** The same lists with some replaced by newer copies (by `url`), e.g. those a refresh kept in the database. */
  withLists(newer: RangesSource[]): AgentRanges {
    const byUrl = new Map(newer.map((s) => [s.url, s]));
    const merged = this.sources.map((s) => {
      const copy = byUrl.get(s.url);
      return copy
        ? { ...s, creationTime: copy.creationTime, retrievedAt: copy.retrievedAt, prefixes: copy.prefixes }
        : s;
    });
    return new AgentRanges(merged, this.params);
  }

  /** Age of each list at `now`, in seconds (NaN when its copy has no date). */
  ages(now: number): { url: string; operator: string; ageSeconds: number }[] {
    const seen = new Set<CompiledList>();
    for (const lists of this.byAgent.values()) for (const list of lists) seen.add(list);
    return [...seen].map((l) => ({
      url: l.source.url,
      operator: l.source.operator,
      ageSeconds: (now - l.retrievedMs) / 1000,
    }));
  }

  /**
   * Host name globs whose forward-confirmed reverse DNS could still verify this view, or none when the lists
   * already verify it (or the agent has no patterns): what the ingest looks up before deciding.
   */
  reverseDnsPatterns(agent: string, ip: string, now: number): string[] {
    const lists = this.byAgent.get(agent.toLowerCase()) ?? [];
    const patterns = [...new Set(lists.flatMap((l) => l.source.rdnsPatterns ?? []))];
    // most agents have no names to confirm: no address check needed to say so
    if (!patterns.length || lists.some((l) => this.fresh(l, now) && inside(l, ip))) return [];
    return patterns;
  }

  /**
   * `ip` as normalised by client-ip.ts (IPv4-mapped IPv6 already turned into IPv4); `confirmedHosts` are the names
   * forward-confirmed reverse DNS found for it (undefined when not looked up or not answered in time).
   */
  verify(agent: string, ip: string, params: { now: number; confirmedHosts?: readonly string[] }): Verification {
    return this.check(agent, ip, params).verification;
  }

  /** As `verify`, saying which check verified the view. */
  check(agent: string, ip: string, params: { now: number; confirmedHosts?: readonly string[] }): AgentCheck {
    const lists = this.byAgent.get(agent.toLowerCase()) ?? [];
    const trusted = lists.filter((l) => this.fresh(l, params.now));
    if (trusted.some((l) => inside(l, ip))) return { verification: 'verified', by: 'ip-range' };
    const patterns = lists.flatMap((l) => l.source.rdnsPatterns ?? []);
    if (params.confirmedHosts?.some((host) => patterns.some((p) => matchesGlob(host, p))))
      return { verification: 'verified', by: 'reverse-dns' };
    return { verification: trusted.length ? 'unverified' : 'unverifiable' };
  }

  /** An authoritative list with prefixes whose copy is younger than the maximum age. */
  private fresh(list: CompiledList, now: number): boolean {
    return (
      list.source.authoritative !== false &&
      list.source.prefixes.length > 0 &&
      now - list.retrievedMs <= this.params.maxAgeMs
    );
  }
}

function inside(list: CompiledList, ip: string): boolean {
  return list.blocks.check(ip, net.isIPv6(ip) ? 'ipv6' : 'ipv4');
}
