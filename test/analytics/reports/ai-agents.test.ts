import { aiAgents } from '../../../src/analytics/reports/ai-agents.js';
import { describeAiReport, event, storeFolded, useReportStore } from '../../support/ai-report-suite.js';
import { PROVIDERS } from '../../support/databases.js';
import { naiveAgents } from '../../support/naive-ai-reports.js';

describeAiReport({
  name: 'agents',
  report: (ctx, range) => aiAgents({ ...ctx, range }),
  naive: naiveAgents,
});

describe.each(PROVIDERS)('agents: verified, unverifiable and spoofed visitors on %s', (provider) => {
  const ctx = useReportStore(provider);

  it('counts a visitor seen both verified and unverifiable in the range as verified, so the two add up', async () => {
    const day = (d: number) => Date.UTC(2026, 10, d, 10);
    await storeFolded(ctx(), [
      event({ ts: day(19), kind: 2, visitorHash: 'both', agent: 'GPTBot', verification: 2 }),
      event({ ts: day(20), kind: 2, visitorHash: 'both', agent: 'GPTBot', verification: 1 }),
      event({ ts: day(20), kind: 2, visitorHash: 'listed', agent: 'GPTBot', verification: 1 }),
      // verified by reverse DNS (3) and by a Web Bot Auth signature (4): verified visitors, counted by method
      event({ ts: day(20), kind: 2, visitorHash: 'dns', agent: 'GPTBot', verification: 3 }),
      event({ ts: day(20), kind: 2, visitorHash: 'signed', agent: 'GPTBot', verification: 4 }),
      // stored before verification was kept: unverifiable
      event({ ts: day(20), kind: 2, visitorHash: 'old', agent: 'GPTBot', verification: null }),
      event({ ts: day(20), kind: 0, visitorHash: 'fake', agent: 'unverified GPTBot' }),
      event({ ts: day(20), kind: 0, visitorHash: 'fake', agent: 'unverified GPTBot' }),
      event({ ts: day(20), kind: 0, visitorHash: null, agent: 'unverified ClaudeBot' }),
      event({ ts: day(20), kind: 0, visitorHash: null, agent: 'Googlebot' }),
    ]);
    const report = (from: number, to: number) =>
      aiAgents({ ...ctx(), range: { from: Date.UTC(2026, 10, from), to: Date.UTC(2026, 10, to) } });
    expect(await report(19, 21)).toEqual({
      agents: [
        {
          agent: 'GPTBot',
          kind: 'crawler',
          visitors: 5,
          verifiedVisitors: 4,
          unverifiableVisitors: 1,
          views: 6,
          verifiedViews: { signature: 1, ipRange: 2, reverseDns: 1 },
        },
      ],
      spoofed: [
        { agent: 'GPTBot', visitors: 1, views: 2 },
        { agent: 'ClaudeBot', visitors: 0, views: 1 },
      ],
    });
    // on the first day alone that visitor was only ever unverifiable
    expect((await report(19, 20)).agents).toEqual([
      {
        agent: 'GPTBot',
        kind: 'crawler',
        visitors: 1,
        verifiedVisitors: 0,
        unverifiableVisitors: 1,
        views: 1,
        verifiedViews: { signature: 0, ipRange: 0, reverseDns: 0 },
      },
    ]);
  });
});
