import type { Db } from '../db/client.js';
import { onScrape, webhookMessagesPending, webhookSubscriptions } from '../metrics/metrics.js';

/** Refreshes the outgoing webhook gauges from the database at each scrape (every replica reports the same). */
export function registerNotificationMetrics(params: { db: Db }): () => void {
  const { db } = params;
  return onScrape(async () => {
    const [enabled, failing, byScribe, disabled, pending] = await Promise.all([
      db.webhookSubscription.count({ where: { enabled: true } }),
      db.webhookSubscription.count({ where: { enabled: true, failingSince: { not: null } } }),
      db.webhookSubscription.count({ where: { enabled: false, disabledReason: { not: null } } }),
      db.webhookSubscription.count({ where: { enabled: false } }),
      db.webhookMessage.count({ where: { status: 'pending' } }),
    ]);
    webhookSubscriptions.set({ state: 'enabled' }, enabled);
    webhookSubscriptions.set({ state: 'failing' }, failing);
    webhookSubscriptions.set({ state: 'disabled_by_scribe' }, byScribe);
    webhookSubscriptions.set({ state: 'disabled' }, disabled);
    webhookMessagesPending.set(pending);
  });
}
