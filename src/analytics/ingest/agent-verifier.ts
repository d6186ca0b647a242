import { classifyUserAgent } from './classify-user-agent.js';
import { normalizeIp } from './client-ip.js';
import type { PageView } from './prepare-event.js';
import type { ReverseDnsConfirmer } from './reverse-dns.js';
import type { AgentRanges, Verification } from './verify-agent.js';

/**
 * Verification of a batch's AI views, decided at ingest: the lists the process holds now, and forward-confirmed
 * reverse DNS for the addresses the lists cannot verify, looked up for at most the wait the caller allows (0 for the
 * tracker's hot path, which then uses what is cached and leaves the lookups to warm the cache). Deciding before the
 * insert means nothing is pending after a restart and no view is counted under two outcomes.
 */
export class AgentVerifier {
  constructor(
    private readonly params: {
      /** the lists in use now (a refresh swaps them) */
      ranges: () => AgentRanges;
      /** absent: no reverse DNS (SCRIBE_AI_REVERSE_DNS=off) */
      dns?: ReverseDnsConfirmer;
    },
  ) {}

  async prepare(params: {
    views: readonly PageView[];
    now: number;
    waitMs: number;
  }): Promise<(agent: string, ip: string) => Verification> {
    const { views, now, waitMs } = params;
    const ranges = this.params.ranges();
    const dns = this.params.dns;
    if (dns) {
      const lookups: string[] = [];
      for (const view of views) {
        const classification = classifyUserAgent(view.userAgent);
        const ip = view.ip === undefined ? undefined : normalizeIp(view.ip);
        if (classification.class !== 'ai' || !ip) continue;
        if (ranges.reverseDnsPatterns(classification.agent, ip, now).length) lookups.push(ip);
      }
      if (lookups.length) await dns.lookUp(lookups, waitMs);
    }
    return (agent, ip) => ranges.verify(agent, ip, { now, confirmedHosts: dns?.cached(ip) });
  }
}
