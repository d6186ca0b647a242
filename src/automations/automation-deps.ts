import type { Logger } from '../logger.js';
import type { StartRunDeps } from './start-run.js';

/** What every trigger works with, handed over once by createAutomations: what a run needs, and the logger. */
export interface AutomationDeps extends StartRunDeps {
  logger: Logger;
  /** how long a request waits for a project's first read of GitHub (loaded-configs.ts FIRST_READ_MS when unset) */
  firstReadMs?: number;
}
