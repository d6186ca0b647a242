import { purposeSplit } from '../../../src/analytics/reports/ai-purposes.js';
import { describeAiReport } from '../../support/ai-report-suite.js';
import { naivePurposes } from '../../support/naive-ai-reports.js';

describeAiReport({
  name: 'ai/purposes',
  report: (ctx, range) => purposeSplit({ ...ctx, range }),
  naive: naivePurposes,
});
