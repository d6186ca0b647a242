import { ReverseDnsConfirmer, type DnsResolver } from '../../../src/analytics/ingest/reverse-dns.js';

/** A resolver whose answers the test releases by hand, recording what it was asked. */
function controlledResolver(records: { ptr: Record<string, string[]>; a: Record<string, string[]> }) {
  const asked: string[] = [];
  const waiting: (() => void)[] = [];
  let held = false;
  const resolver: DnsResolver = {
    async reverse(ip) {
      asked.push(ip);
      if (held) await new Promise<void>((resolve) => waiting.push(resolve));
      if (!records.ptr[ip]) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      return records.ptr[ip];
    },
    resolve4: async (host) => records.a[host]?.filter((a) => !a.includes(':')) ?? [],
    resolve6: async (host) => records.a[host]?.filter((a) => a.includes(':')) ?? [],
  };
  return {
    resolver,
    asked,
    hold: () => {
      held = true;
    },
    releaseAll: () => {
      held = false;
      for (const release of waiting.splice(0)) release();
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('forward-confirmed reverse DNS', () => {
  const records = {
    ptr: {
      '192.0.2.1': ['crawl-192-0-2-1.googlebot.com.'],
      '192.0.2.2': ['liar.googlebot.com'],
      '2001:db8::7': ['crawl-7.googlebot.com'],
      '192.0.2.3': ['a.example.com', 'b.googlebot.com'],
    },
    a: {
      'crawl-192-0-2-1.googlebot.com': ['192.0.2.1'],
      'liar.googlebot.com': ['198.51.100.1'],
      // another spelling of the same IPv6 address
      'crawl-7.googlebot.com': ['2001:db8:0:0:0:0:0:7'],
      'a.example.com': ['192.0.2.3'],
      'b.googlebot.com': ['192.0.2.3'],
    },
  };

  it('keeps the names whose own addresses lead back; a PTR record alone confirms nothing', async () => {
    const dns = controlledResolver(records);
    const confirmer = new ReverseDnsConfirmer({ resolver: dns.resolver });
    await confirmer.lookUp(['192.0.2.1', '192.0.2.2', '2001:db8::7', '192.0.2.3', '203.0.113.1'], 10_000);
    expect(confirmer.cached('192.0.2.1')).toEqual(['crawl-192-0-2-1.googlebot.com']);
    expect(confirmer.cached('192.0.2.2')).toEqual([]);
    expect(confirmer.cached('2001:db8::7')).toEqual(['crawl-7.googlebot.com']);
    expect(confirmer.cached('192.0.2.3')).toEqual(['a.example.com', 'b.googlebot.com']);
    expect(confirmer.cached('203.0.113.1')).toEqual([]);
  });

  it('answers from its cache until the entry expires (negative answers sooner)', async () => {
    const dns = controlledResolver(records);
    let now = 0;
    const confirmer = new ReverseDnsConfirmer({
      resolver: dns.resolver,
      ttlMs: 1000,
      negativeTtlMs: 100,
      now: () => now,
    });
    await confirmer.lookUp(['192.0.2.1', '203.0.113.1'], 10_000);
    await confirmer.lookUp(['192.0.2.1', '203.0.113.1'], 10_000);
    expect(dns.asked).toEqual(['192.0.2.1', '203.0.113.1']);
    now = 500;
    await confirmer.lookUp(['192.0.2.1', '203.0.113.1'], 10_000);
    expect(dns.asked).toEqual(['192.0.2.1', '203.0.113.1', '203.0.113.1']);
    now = 2000;
    expect(confirmer.cached('192.0.2.1')).toBeUndefined();
  });

  it('looks up at most `concurrency` addresses at once, queues a bounded number more and drops the rest', async () => {
    const dns = controlledResolver({ ptr: {}, a: {} });
    dns.hold();
    const confirmer = new ReverseDnsConfirmer({ resolver: dns.resolver, concurrency: 2, queueLimit: 3 });
    const ips = Array.from({ length: 10 }, (_, i) => `198.51.100.${i}`);
    await confirmer.lookUp(ips, 0);
    await settle();
    expect(dns.asked).toEqual(['198.51.100.0', '198.51.100.1']);
    dns.releaseAll();
    await settle();
    await settle();
    // the queued three ran once slots freed; the other five were never looked up
    expect(dns.asked).toEqual(ips.slice(0, 5));
    expect(ips.map((ip) => confirmer.cached(ip) !== undefined)).toEqual([
      ...Array(5).fill(true),
      ...Array(5).fill(false),
    ]);
  });

  it('an answer later than the timeout is no confirmation; one address in flight is asked once', async () => {
    const dns = controlledResolver(records);
    dns.hold();
    const confirmer = new ReverseDnsConfirmer({ resolver: dns.resolver, timeoutMs: 50 });
    await Promise.all([confirmer.lookUp(['192.0.2.1'], 10_000), confirmer.lookUp(['192.0.2.1'], 10_000)]);
    expect(dns.asked).toEqual(['192.0.2.1']);
    expect(confirmer.cached('192.0.2.1')).toEqual([]);
    dns.releaseAll();
  });
});
