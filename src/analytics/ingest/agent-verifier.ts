import { classifyUserAgent } from './classify-user-agent.js';
import { normalizeIp } from './client-ip.js';
import type { KeyDirectories } from './key-directories.js';
import type { CheckAgent, PageView } from './prepare-event.js';
import type { ReverseDnsConfirmer } from './reverse-dns.js';
import type { AgentRanges } from './verify-agent.js';
import { signedDirectory, signatureCheck } from './verify-signed-view.js';

/**
 * Verification of a batch's AI views, decided at ingest: a Web Bot Auth signature first (checked against the key
 * directories Scribe trusts, fetched for at most the wait the caller allows), then the lists the process holds now,
 * then forward-confirmed reverse DNS for the addresses the lists cannot verify, looked up for at most that wait (0
 * for the tracker's hot path, which then uses what is cached and leaves the lookups to warm the cache). Deciding
 * before the insert means nothing is pending after a restart and no view is counted under two outcomes.
 */
export class AgentVerifier {
  constructor(
    private readonly params: {
      /** the lists in use now (a refresh swaps them) */
      ranges: () => AgentRanges;
      /** absent: no reverse DNS (SCRIBE_AI_REVERSE_DNS=off) */
      dns?: ReverseDnsConfirmer;
      /** absent: signatures are not checked */
      directories?: KeyDirectories;
    },
  ) {}

  async prepare(params: { views: readonly PageView[]; now: number; waitMs: number }): Promise<CheckAgent> {
    const { views, now, waitMs } = params;
    const ranges = this.params.ranges();
    const { dns, directories } = this.params;
    const lookups: string[] = [];
    const signed: string[] = [];
    for (const view of views) {
      const directory = directories && signedDirectory(view);
      if (directory) signed.push(directory);
      if (!dns) continue;
      const classification = classifyUserAgent(view.userAgent);
      const ip = view.ip === undefined ? undefined : normalizeIp(view.ip);
      if (classification.class !== 'ai' || !ip) continue;
      if (ranges.reverseDnsPatterns(classification.agent, ip, now).length) lookups.push(ip);
    }
    await Promise.all([
      lookups.length && dns ? dns.lookUp(lookups, waitMs) : undefined,
      signed.length && directories ? directories.refresh(signed, waitMs) : undefined,
    ]);
    return ({ view, agent, ip }) => {
      if (directories) {
        const signature = signatureCheck({ view, agent, directories });
        if (signature) return signature;
      }
      if (!agent || !ip) return { verification: 'unverifiable' };
      return ranges.check(agent, ip, { now, confirmedHosts: dns?.cached(ip) });
    };
  }
}
