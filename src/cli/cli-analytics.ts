import type { Db } from '../db/client.js';
import { resolveServerSecret } from '../settings/server-secret.js';
import { createLogger } from '../logger.js';
import { Analytics } from '../analytics/analytics.js';
import type { CommandContext } from './command.js';

/**
 * Runs `use` with the analytics service as a one-off command needs it (the server's secret, so visitor hashes match
 * the service's; no fold timer, no log lines), and closes it whatever `use` does.
 */
export async function withAnalytics<T>(
  ctx: Pick<CommandContext, 'config' | 'clock'>,
  database: Db,
  use: (analytics: Analytics) => Promise<T>,
): Promise<T> {
  const { config, clock } = ctx;
  const secret = await resolveServerSecret({ db: database, configured: config.secret, clock });
  const analytics = new Analytics({
    target: config.database,
    secret,
    config: config.analytics,
    logger: createLogger('silent'),
    clock,
    autoFold: false,
  });
  try {
    return await use(analytics);
  } finally {
    await analytics.close();
  }
}
