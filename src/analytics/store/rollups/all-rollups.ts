import type { Rollup } from './rollup.js';
import { agentDaysRollup } from './agent-days.js';

/** Every rollup the fold maintains beside the day sets and day views, in the order it adds to them. */
export const ROLLUPS: Rollup[] = [agentDaysRollup];
