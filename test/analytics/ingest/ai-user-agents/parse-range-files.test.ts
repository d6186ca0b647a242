import fs from 'node:fs';
import {
  checkPrefix,
  isSnapshot,
  matchesGlob,
  parsePublishedRanges,
  parseSnapshot,
} from '../../../../src/analytics/ingest/ai-user-agents/parse-range-files.js';

const here = (name: string) => new URL(`../../../../src/analytics/ingest/ai-user-agents/${name}`, import.meta.url);

describe("the operators' range format", () => {
  it("reads OpenAI's shipped files, Anthropic's Z timestamps, Common Crawl's extra fields and IPv6 prefixes", () => {
    const gptbot = parsePublishedRanges(fs.readFileSync(here('openai/gptbot.json'), 'utf8'));
    expect(gptbot.creationTime).toBe('2025-10-30T11:00:00.000000');
    expect(gptbot.prefixes).toContain('132.196.86.0/24');
    expect(
      parsePublishedRanges(
        '{"creationTime":"2026-10-01T00:00:00Z","prefixes":[{"ipv4Prefix":"192.0.2.0/28"},{"ipv6Prefix":"2001:db8::/32"}]}',
      ),
    ).toEqual({ creationTime: '2026-10-01T00:00:00Z', prefixes: ['192.0.2.0/28', '2001:db8::/32'] });
    expect(
      parsePublishedRanges(
        '{"syncToken":"1","creationTime":"2026-10-01T00:00:00Z","prefixes":[{"ipv4Prefix":"192.0.2.0/28","service":"ccbot"},{"ipv4Prefix":"192.0.2.0/28"}],"note":"x"}',
      ),
    ).toEqual({ creationTime: '2026-10-01T00:00:00Z', prefixes: ['192.0.2.0/28'] });
    expect(parsePublishedRanges('{"prefixes":[{"ipv4Prefix":"192.0.2.1/32"}]}').creationTime).toBeNull();
  });

  it('refuses an HTML page, non-JSON, an empty or missing list and malformed prefixes', () => {
    expect(() => parsePublishedRanges('<!DOCTYPE html><html></html>')).toThrow('an HTML or XML page');
    expect(() => parsePublishedRanges('  <html>')).toThrow('an HTML or XML page');
    expect(() => parsePublishedRanges('not json')).toThrow('not JSON');
    expect(() => parsePublishedRanges('{"ranges":[]}')).toThrow('no "prefixes" array');
    expect(() => parsePublishedRanges('{"prefixes":[]}')).toThrow('an empty "prefixes" array');
    expect(() => parsePublishedRanges('{"prefixes":[{"ipv4Prefix":"192.0.2.0/33"}]}')).toThrow('not an IP prefix');
    expect(() => parsePublishedRanges('{"prefixes":[{"ipv6Prefix":"2001:db8::/129"}]}')).toThrow('not an IP prefix');
    expect(() => parsePublishedRanges('{"prefixes":[{"ipv4Prefix":"192.0.2.0"}]}')).toThrow('not an IP prefix');
    expect(() => parsePublishedRanges('{"prefixes":[{"ipv4Prefix":"192.0.2/24"}]}')).toThrow('not an IP prefix');
    expect(() => parsePublishedRanges('{"prefixes":[{"other":"x"}]}')).toThrow('not an IP prefix: undefined');
    expect(() => parsePublishedRanges('{"prefixes":[null]}')).toThrow('not an IP prefix');
    expect(() => checkPrefix('192.0.2.0/24/1')).toThrow('not an IP prefix');
  });
});

describe('the ipverse snapshot (crawlers.json)', () => {
  it('reads every service with its patterns, authority and date; tells itself from an operator file', () => {
    const text = fs.readFileSync(here('crawlers.json'), 'utf8');
    expect(isSnapshot(text)).toBe(true);
    expect(isSnapshot(fs.readFileSync(here('openai/gptbot.json'), 'utf8'))).toBe(false);
    const services = new Map(parseSnapshot(text).map((s) => [s.name, s]));
    expect(services.get('Meta-ExternalAgent')).toMatchObject({ authoritative: false });
    expect(services.get('Common Crawl')).toMatchObject({
      authoritative: true,
      sourceUrl: 'https://index.commoncrawl.org/ccbot.json',
      lastChangedAt: '2026-08-05T17:35:39Z',
      rdnsPatterns: ['*.crawl.commoncrawl.org'],
    });
    // Common Crawl's list has an IPv6 prefix
    expect(services.get('Common Crawl')!.prefixes.some((p) => p.includes(':'))).toBe(true);
    expect(() => parseSnapshot('{"services":{"X":{"ipv4":["nope"]}}}')).toThrow('not an IP prefix');
    expect(() => parseSnapshot('{"services":{"X":{"ipv4":"192.0.2.0/24"}}}')).toThrow('"ipv4" is not a list');
  });

  it('matches its globs whole and without case', () => {
    expect(matchesGlob('crawl-1-2-3-4.googlebot.com', 'crawl-*.googlebot.com')).toBe(true);
    expect(matchesGlob('CRAWL-1.GOOGLEBOT.COM', 'crawl-*.googlebot.com')).toBe(true);
    expect(matchesGlob('crawl-1.googlebot.com.evil.example', 'crawl-*.googlebot.com')).toBe(false);
    expect(matchesGlob('crawl-1xgooglebotxcom', 'crawl-*.googlebot.com')).toBe(false);
    expect(matchesGlob('Mozilla/5.0 (compatible; GPTBot/1.2)', '*GPTBot*')).toBe(true);
  });
});
