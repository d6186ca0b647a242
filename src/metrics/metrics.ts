import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics for the whole process, in one registry. Counters are incremented where things happen;
 * gauges that describe stored state (jobs by status, queue depth) are computed at scrape time by a collector
 * the owning module registers, so replicas never disagree with the database.
 */
const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'scribe_process_' });

export const httpRequestDuration = new Histogram({
  name: 'scribe_http_request_duration_seconds',
  help: 'HTTP request latency by route pattern and status code',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'scribe_job_duration_seconds',
  help: 'Wall time of agent job runs, by outcome',
  labelNames: ['outcome'] as const,
  buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800],
  registers: [registry],
});

export const modelTokens = new Counter({
  name: 'scribe_model_tokens_total',
  help: 'Model tokens used by agent jobs, by model and direction (input/output)',
  labelNames: ['model', 'direction'] as const,
  registers: [registry],
});

export const clickhouseOutboxDepth = new Gauge({
  name: 'scribe_clickhouse_outbox_depth',
  help: 'Page views accepted and waiting in the primary database for ClickHouse (CLICKHOUSE_URL), as this process last saw',
  registers: [registry],
});

export const ingestedEvents = new Counter({
  name: 'scribe_ingested_events_total',
  help: 'Page views accepted by analytics ingestion, by visitor class (human/ai/bot)',
  labelNames: ['class'] as const,
  registers: [registry],
});

export const rejectedEvents = new Counter({
  name: 'scribe_rejected_events_total',
  help: 'Page views or log lines refused by analytics ingestion, by reason',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const droppedSubmissions = new Counter({
  name: 'scribe_dropped_submissions_total',
  help: 'Tracker page views, widget feedback and site searches dropped without a word to the page, by reason (unknown_project, disabled_project, host_not_listed, bot) and submission (page_view, feedback, search)',
  labelNames: ['reason', 'submission'] as const,
  registers: [registry],
});

export const leaseLosses = new Counter({
  name: 'scribe_worker_lease_losses_total',
  help: 'Times a worker found the lease on its job taken or expired',
  registers: [registry],
});

export const jobsByStatus = new Gauge({
  name: 'scribe_jobs',
  help: 'Agent jobs by status (from the database, at scrape time)',
  labelNames: ['status'] as const,
  registers: [registry],
});

export const workerQueueDepth = new Gauge({
  name: 'scribe_worker_queue_depth',
  help: 'Jobs waiting for a worker (from the database, at scrape time)',
  registers: [registry],
});

export const aiRangesAge = new Gauge({
  name: 'scribe_ai_ranges_age_seconds',
  help: 'Age of each AI agent range list copy in use (since it was fetched); older than SCRIBE_AI_RANGES_MAX_AGE_DAYS verifies nothing',
  labelNames: ['list', 'operator'] as const,
  registers: [registry],
});

export const aiRangesRefreshes = new Counter({
  name: 'scribe_ai_ranges_refreshes_total',
  help: 'Fetches of AI agent range lists by this process, by outcome (accepted/refused)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookSubscriptions = new Gauge({
  name: 'scribe_webhook_subscriptions',
  help: 'Outgoing webhook subscriptions by state: enabled, failing (enabled, no success since a failure), disabled_by_scribe (5 days of failures), disabled (from the database, at scrape time)',
  labelNames: ['state'] as const,
  registers: [registry],
});

export const webhookMessagesPending = new Gauge({
  name: 'scribe_webhook_messages_pending',
  help: 'Outgoing webhook deliveries waiting to be sent or retried (from the database, at scrape time)',
  registers: [registry],
});

type ScrapeCollector = () => Promise<void>;
const collectors: ScrapeCollector[] = [];

/** Registers a function that refreshes gauges from stored state right before each scrape. */
export function onScrape(collector: ScrapeCollector): () => void {
  collectors.push(collector);
  return () => {
    const i = collectors.indexOf(collector);
    if (i >= 0) collectors.splice(i, 1);
  };
}

export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  await Promise.all(collectors.map((collect) => collect().catch(() => undefined)));
  return { contentType: registry.contentType, body: await registry.metrics() };
}
