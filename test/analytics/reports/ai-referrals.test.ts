import { aiReferrals } from '../../../src/analytics/reports/ai-referrals.js';
import { describeAiReport } from '../../support/ai-report-suite.js';
import { naiveReferrals } from '../../support/naive-ai-reports.js';

describeAiReport({
  name: 'ai/referrals',
  report: (ctx, range) => aiReferrals({ ...ctx, range }),
  naive: naiveReferrals,
});
