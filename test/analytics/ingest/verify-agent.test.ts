import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentRanges, type RangesSource } from '../../../src/analytics/ingest/verify-agent.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-24T12:00:00Z');
const MAX_AGE = 30 * DAY;

function source(overrides: Partial<RangesSource>): RangesSource {
  return {
    url: 'https://example.com/gptbot.json',
    operator: 'Example',
    agents: ['GPTBot'],
    creationTime: null,
    retrievedAt: new Date(NOW - DAY).toISOString(),
    prefixes: ['192.0.2.0/28', '2001:db8:1::/48'],
    ...overrides,
  };
}

describe('verified, unverified, unverifiable', () => {
  const verify = (sources: RangesSource[], agent: string, ip: string, confirmedHosts?: string[]) =>
    new AgentRanges(sources, { maxAgeMs: MAX_AGE }).verify(agent, ip, { now: NOW, confirmedHosts });

  it('inside a fresh authoritative list is verified, outside unverified (IPv4 and IPv6, any case of the name)', () => {
    const lists = [source({})];
    expect(verify(lists, 'GPTBot', '192.0.2.15')).toBe('verified');
    expect(verify(lists, 'gptbot', '192.0.2.16')).toBe('unverified');
    expect(verify(lists, 'GPTBot', '2001:db8:1:ff::1')).toBe('verified');
    expect(verify(lists, 'GPTBot', '2001:db8:2::1')).toBe('unverified');
  });

  it('no list, an empty list, a list of the whole network or a stale list never calls a view spoofed', () => {
    expect(verify([source({})], 'ClaudeBot', '203.0.113.1')).toBe('unverifiable');
    expect(verify([source({ prefixes: [] })], 'GPTBot', '203.0.113.1')).toBe('unverifiable');
    expect(verify([source({ authoritative: false })], 'GPTBot', '203.0.113.1')).toBe('unverifiable');
    // inside a list of the operator's whole network proves nothing either
    expect(verify([source({ authoritative: false })], 'GPTBot', '192.0.2.1')).toBe('unverifiable');
    const stale = source({ retrievedAt: new Date(NOW - MAX_AGE - 1000).toISOString() });
    expect(verify([stale], 'GPTBot', '203.0.113.1')).toBe('unverifiable');
    expect(verify([stale], 'GPTBot', '192.0.2.1')).toBe('unverifiable');
    expect(verify([source({ retrievedAt: new Date(NOW - MAX_AGE).toISOString() })], 'GPTBot', '192.0.2.1')).toBe(
      'verified',
    );
    expect(verify([source({ retrievedAt: null })], 'GPTBot', '192.0.2.1')).toBe('unverifiable');
    // a list never fetched has no age, even in a file with a modification time
    const never = new AgentRanges([source({ retrievedAt: null })], { maxAgeMs: MAX_AGE, fallbackRetrievedMs: NOW });
    expect(never.ages(NOW)[0].ageSeconds).toBeNaN();
    expect(never.verify('GPTBot', '203.0.113.1', { now: NOW })).toBe('unverifiable');
  });

  it('forward-confirmed reverse DNS matching a documented name verifies, whatever the lists say', () => {
    const apple = source({ agents: ['Applebot'], rdnsPatterns: ['*.applebot.apple.com'] });
    expect(verify([apple], 'Applebot', '203.0.113.1', ['17-58-101-1.applebot.apple.com'])).toBe('verified');
    expect(verify([apple], 'Applebot', '203.0.113.1', ['evil.example.com'])).toBe('unverified');
    expect(verify([apple], 'Applebot', '203.0.113.1', ['applebot.apple.com.evil.example'])).toBe('unverified');
    expect(verify([apple], 'Applebot', '203.0.113.1', [])).toBe('unverified');
    const stale = { ...apple, retrievedAt: new Date(NOW - 90 * DAY).toISOString() };
    expect(verify([stale], 'Applebot', '203.0.113.1', ['a.applebot.apple.com'])).toBe('verified');
    expect(verify([stale], 'Applebot', '203.0.113.1')).toBe('unverifiable');
  });

  it('an agent in several lists is verified by any fresh one and spoofed only outside all', () => {
    const lists = [
      source({ url: 'https://example.com/a.json', prefixes: ['192.0.2.0/28'] }),
      source({ url: 'https://example.com/b.json', prefixes: [] }),
      source({ url: 'https://example.com/c.json', prefixes: ['198.51.100.0/24'] }),
    ];
    expect(verify(lists, 'GPTBot', '198.51.100.9')).toBe('verified');
    expect(verify(lists, 'GPTBot', '203.0.113.1')).toBe('unverified');
  });

  it('reverse DNS is looked up only where it could still verify the view', () => {
    const apple = source({ agents: ['Applebot'], rdnsPatterns: ['*.applebot.apple.com'] });
    const ranges = new AgentRanges([apple, source({})], { maxAgeMs: MAX_AGE });
    expect(ranges.reverseDnsPatterns('Applebot', '192.0.2.1', NOW)).toEqual([]);
    expect(ranges.reverseDnsPatterns('Applebot', '203.0.113.1', NOW)).toEqual(['*.applebot.apple.com']);
    expect(ranges.reverseDnsPatterns('GPTBot', '203.0.113.1', NOW)).toEqual([]);
  });

  it('a newer copy replaces a list by URL, and every list reports its age', () => {
    const old = new AgentRanges([source({ retrievedAt: '2026-08-21T00:00:00Z' })], { maxAgeMs: MAX_AGE });
    expect(old.verify('GPTBot', '192.0.2.1', { now: NOW })).toBe('unverifiable');
    const fresh = old.withLists([
      {
        ...source({}),
        operator: '',
        agents: [],
        retrievedAt: new Date(NOW - DAY).toISOString(),
        prefixes: ['203.0.113.0/24'],
      },
    ]);
    expect(fresh.verify('GPTBot', '203.0.113.1', { now: NOW })).toBe('verified');
    expect(fresh.verify('GPTBot', '192.0.2.1', { now: NOW })).toBe('unverified');
    expect(fresh.ages(NOW)).toEqual([
      { url: 'https://example.com/gptbot.json', operator: 'Example', ageSeconds: 86_400 },
    ]);
  });

  it('the shipped snapshot verifies while fresh and leaves every agent unverifiable once older than the maximum age', () => {
    const shipped = AgentRanges.load({ maxAgeMs: MAX_AGE });
    // 20.171.207.0/24 is in OpenAI's GPTBot list of the snapshot (2026-08-21)
    const soon = Date.parse('2026-08-25T00:00:00Z');
    expect(shipped.verify('GPTBot', '20.171.207.1', { now: soon })).toBe('verified');
    expect(shipped.verify('GPTBot', '203.0.113.1', { now: soon })).toBe('unverified');
    expect(shipped.verify('GPTBot', '20.171.207.1', { now: NOW })).toBe('unverifiable');
    expect(shipped.verify('GPTBot', '203.0.113.1', { now: NOW })).toBe('unverifiable');
  });

  it('a file of lists without retrieval dates dates them from its modification time', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-ranges-'));
    try {
      const file = path.join(dir, 'ranges.json');
      fs.writeFileSync(file, JSON.stringify({ sources: [{ ...source({}), retrievedAt: undefined }] }));
      const ranges = AgentRanges.load({ file, maxAgeMs: MAX_AGE });
      const now = fs.statSync(file).mtimeMs;
      expect(ranges.verify('GPTBot', '203.0.113.1', { now })).toBe('unverified');
      expect(ranges.verify('GPTBot', '203.0.113.1', { now: now + MAX_AGE + 1000 })).toBe('unverifiable');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
