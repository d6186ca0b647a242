import { Resolver } from 'node:dns/promises';
import net from 'node:net';
import { waitAtMost } from '../../clock.js';

/** The three lookups forward-confirmed reverse DNS needs (node:dns's Resolver; a stand-in in tests). */
export interface DnsResolver {
  reverse(ip: string): Promise<string[]>;
  resolve4(host: string): Promise<string[]>;
  resolve6(host: string): Promise<string[]>;
}

/** The system's resolver, asking once per lookup; the confirmer bounds the time itself. */
export function systemResolver(): DnsResolver {
  return new Resolver({ tries: 1, timeout: 2000 });
}

/** Names of one address beyond which a PTR answer is not followed (operators publish one). */
const MAX_NAMES = 4;

interface Cached {
  hosts: string[];
  until: number;
}

/**
 * Forward-confirmed reverse DNS: the names an address's PTR records give whose own A/AAAA records lead back to the
 * address. Answers (confirmed or not) are cached, each lookup is cut off after `timeoutMs` (counted as no
 * confirmation), and at most `concurrency` addresses are looked up at once with at most `queueLimit` more waiting,
 * so a flood of distinct addresses costs a bounded amount and the ingest never waits longer than it chose to.
 */
export class ReverseDnsConfirmer {
  private readonly cache = new Map<string, Cached>();
  private readonly inFlight = new Map<string, Promise<string[]>>();
  private readonly queue: (() => void)[] = [];
  private running = 0;
  private readonly params: Required<ConfirmerParams>;

  constructor(params: ConfirmerParams) {
    this.params = {
      timeoutMs: 2000,
      concurrency: 16,
      queueLimit: 1000,
      cacheSize: 10_000,
      ttlMs: 6 * 3_600_000,
      negativeTtlMs: 3_600_000,
      now: Date.now,
      ...params,
    };
  }

  /** The confirmed names of `ip` if it was looked up lately, else undefined. */
  cached(ip: string): string[] | undefined {
    const hit = this.cache.get(ip);
    if (!hit) return undefined;
    if (hit.until > this.params.now()) return hit.hosts;
    this.cache.delete(ip);
    return undefined;
  }

  /**
   * Looks the addresses up (those not cached nor already under way), waiting at most `waitMs` for the answers; those
   * that come later fill the cache for the next views from the address. Resolves when all answered or time is up.
   */
  async lookUp(ips: Iterable<string>, waitMs: number): Promise<void> {
    const pending: Promise<unknown>[] = [];
    for (const ip of new Set(ips)) {
      if (this.cached(ip)) continue;
      const lookup = this.start(ip);
      if (lookup) pending.push(lookup);
    }
    await waitAtMost(pending, waitMs);
  }

  private start(ip: string): Promise<string[]> | undefined {
    const running = this.inFlight.get(ip);
    if (running) return running;
    if (this.running >= this.params.concurrency && this.queue.length >= this.params.queueLimit) return undefined;
    const lookup = this.slot()
      .then(() => this.confirm(ip))
      .then(
        (hosts) => this.remember(ip, hosts),
        () => this.remember(ip, []),
      )
      .finally(() => {
        this.inFlight.delete(ip);
        this.running--;
        this.queue.shift()?.();
      });
    this.inFlight.set(ip, lookup);
    return lookup;
  }

  private slot(): Promise<void> {
    if (this.running < this.params.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.queue.push(() => {
        this.running++;
        resolve();
      }),
    );
  }

  private async confirm(ip: string): Promise<string[]> {
    const { resolver, timeoutMs } = this.params;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('reverse DNS timed out')), timeoutMs);
    });
    try {
      return await Promise.race([forwardConfirmed(resolver, ip), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private remember(ip: string, hosts: string[]): string[] {
    const { cacheSize, ttlMs, negativeTtlMs, now } = this.params;
    if (this.cache.size >= cacheSize) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(ip, { hosts, until: now() + (hosts.length ? ttlMs : negativeTtlMs) });
    return hosts;
  }
}

export interface ConfirmerParams {
  resolver: DnsResolver;
  timeoutMs?: number;
  concurrency?: number;
  queueLimit?: number;
  cacheSize?: number;
  ttlMs?: number;
  negativeTtlMs?: number;
  now?: () => number;
}

async function forwardConfirmed(resolver: DnsResolver, ip: string): Promise<string[]> {
  const type = net.isIPv6(ip) ? 'ipv6' : 'ipv4';
  const names = (await resolver.reverse(ip).catch(() => [] as string[])).slice(0, MAX_NAMES);
  const confirmed = await Promise.all(
    names.map(async (name) => {
      const host = name.replace(/\.$/, '').toLowerCase();
      const addresses = await (type === 'ipv6' ? resolver.resolve6(host) : resolver.resolve4(host)).catch(
        () => [] as string[],
      );
      // compared as addresses, not text: 2001:db8::1 and 2001:db8:0:0::1 are one address
      const back = new net.BlockList();
      for (const address of addresses)
        if (net.isIP(address) === (type === 'ipv6' ? 6 : 4)) back.addAddress(address, type);
      return back.check(ip, type) ? host : null;
    }),
  );
  return confirmed.filter((h): h is string => h !== null);
}
