import type { Rollup } from './rollup.js';
import { agentDaysRollup } from './agent-days.js';
import { siteDaysRollup } from './site-days.js';
import { pageDaysRollup } from './page-days.js';

/** Every rollup the fold maintains beside the day sets and day views, in the order it adds to them (after the day sets:
 * the site rollup counts from them). */
export const ROLLUPS: Rollup[] = [agentDaysRollup, siteDaysRollup, pageDaysRollup];
