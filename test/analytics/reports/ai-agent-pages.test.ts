import { agentPages } from '../../../src/analytics/reports/ai-agent-pages.js';
import { describeAiReport } from '../../support/ai-report-suite.js';
import { naiveAgentPages } from '../../support/naive-ai-reports.js';

describeAiReport({
  name: 'ai/agent-pages by agent',
  report: (ctx, range) => agentPages({ ...ctx, range, by: 'agent' }),
  naive: (events, range) => naiveAgentPages(events, range, 'agent'),
});

describeAiReport({
  name: 'ai/agent-pages by operator',
  report: (ctx, range) => agentPages({ ...ctx, range, by: 'operator' }),
  naive: (events, range) => naiveAgentPages(events, range, 'operator'),
});
