import type { AppContext } from '../context.js';
import { Analytics } from '../../analytics/analytics.js';

const instances = new WeakMap<AppContext, Analytics>();

/** The analytics service of an app context, opened on first use (its own connection to the same database). */
export function analyticsFor(ctx: AppContext): Analytics {
  let analytics = instances.get(ctx);
  if (!analytics) {
    analytics = new Analytics({ target: ctx.database, secret: ctx.secret, config: ctx.config.analytics, logger: ctx.logger, clock: ctx.clock });
    instances.set(ctx, analytics);
  }
  return analytics;
}

export async function closeAnalytics(ctx: AppContext): Promise<void> {
  const analytics = instances.get(ctx);
  instances.delete(ctx);
  await analytics?.close();
}
