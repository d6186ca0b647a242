import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { DatabaseTarget } from '../db/database-url.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';

/** What route modules may use. Built once in main.ts. */
export interface AppContext {
  config: Config;
  db: Db;
  database: DatabaseTarget;
  clock: Clock;
  logger: Logger;
  /** server secret for keyed hashes (visitor ids) */
  secret: string;
}
