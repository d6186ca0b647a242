import { aiAgents } from '../../../src/analytics/reports/ai-agents.js';
import { describeAiReport } from '../../support/ai-report-suite.js';
import { naiveAgents } from '../../support/naive-ai-reports.js';

describeAiReport({
  name: 'agents',
  report: (ctx, range) => aiAgents({ ...ctx, range }),
  naive: naiveAgents,
});
