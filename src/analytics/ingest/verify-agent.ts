import fs from 'node:fs';
import net from 'node:net';

/**
 * Whether an AI agent's request came from its operator's published addresses: `verified` inside them, `unverified`
 * outside (a spoofed user agent), `unverifiable` when no ranges are known for the agent.
 */
export type Verification = 'verified' | 'unverified' | 'unverifiable';

export interface RangesSource {
  operator: string;
  agents: string[];
  url: string;
  creationTime: string | null;
  prefixes: string[];
}

const SHIPPED = new URL('./ai-user-agents/ai-ranges.json', import.meta.url);

/** The published ranges per agent name (case-insensitive), from the shipped data file or an operator's own copy. */
export class AgentRanges {
  private readonly byAgent = new Map<string, net.BlockList>();

  constructor(sources: RangesSource[]) {
    for (const source of sources) {
      if (!source.prefixes.length) continue;
      const list = new net.BlockList();
      for (const prefix of source.prefixes) {
        const [address, bits] = prefix.split('/');
        const type = net.isIPv6(address) ? 'ipv6' : 'ipv4';
        list.addSubnet(address, Number(bits ?? (type === 'ipv6' ? 128 : 32)), type);
      }
      for (const agent of source.agents) this.byAgent.set(agent.toLowerCase(), list);
    }
  }

  static load(file?: string): AgentRanges {
    const text = fs.readFileSync(file ?? SHIPPED, 'utf8');
    return new AgentRanges((JSON.parse(text) as { sources: RangesSource[] }).sources);
  }

  /** `ip` as normalised by client-ip.ts (IPv4-mapped IPv6 already turned into IPv4). */
  verify(agent: string, ip: string): Verification {
    const list = this.byAgent.get(agent.toLowerCase());
    if (!list) return 'unverifiable';
    const type = net.isIPv6(ip) ? 'ipv6' : 'ipv4';
    return list.check(ip, type) ? 'verified' : 'unverified';
  }
}
