import { AgentRanges } from '../../../src/analytics/ingest/verify-agent.js';
import { parsePublishedRanges } from '../../../src/analytics/ingest/ai-user-agents/update-ai-ranges.js';

describe('verified vs claimed AI agents', () => {
  const ranges = new AgentRanges([
    {
      operator: 'Example',
      agents: ['GPTBot'],
      url: 'https://example.com/gptbot.json',
      creationTime: null,
      prefixes: ['192.0.2.0/28', '2001:db8:1::/48'],
    },
    {
      operator: 'Example',
      agents: ['OAI-SearchBot'],
      url: 'https://example.com/searchbot.json',
      creationTime: null,
      prefixes: [],
    },
  ]);

  it('an agent inside its ranges is verified, outside unverified, without ranges unverifiable', () => {
    expect(ranges.verify('GPTBot', '192.0.2.15')).toBe('verified');
    expect(ranges.verify('gptbot', '192.0.2.16')).toBe('unverified');
    expect(ranges.verify('GPTBot', '2001:db8:1:ff::1')).toBe('verified');
    expect(ranges.verify('GPTBot', '2001:db8:2::1')).toBe('unverified');
    expect(ranges.verify('OAI-SearchBot', '203.0.113.1')).toBe('unverifiable');
    expect(ranges.verify('ClaudeBot', '203.0.113.1')).toBe('unverifiable');
  });

  it('the shipped data file loads; sources never fetched leave their agents unverifiable', () => {
    const shipped = AgentRanges.load();
    expect(shipped.verify('GPTBot', '203.0.113.1')).toBe('unverifiable');
  });

  it("the updater reads the operators' published format and refuses anything else", () => {
    expect(
      parsePublishedRanges(
        '{"creationTime":"2026-01-01T00:00:00Z","prefixes":[{"ipv4Prefix":"192.0.2.0/28"},{"ipv6Prefix":"2001:db8::/32"}]}',
      ),
    ).toEqual({
      creationTime: '2026-01-01T00:00:00Z',
      prefixes: ['192.0.2.0/28', '2001:db8::/32'],
    });
    expect(() => parsePublishedRanges('{"prefixes":[{"ipv4Prefix":"192.0.2.0/33"}]}')).toThrow('not an IP prefix');
    expect(() => parsePublishedRanges('{"ranges":[]}')).toThrow('no "prefixes" array');
  });
});
