import { healthRoutes } from '../../../src/http/routes/health.js';
import { metricsRoutes } from '../../../src/http/routes/metrics.js';
import { ingestedEvents, onScrape, workerQueueDepth } from '../../../src/metrics/metrics.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

describe('GET /metrics', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ provider: 'sqlite', routes: [healthRoutes, metricsRoutes] });
  });
  afterAll(async () => {
    await app.close();
  });

  const sample = (text: string, name: string, labels: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
    return line === undefined ? undefined : Number(line.split(' ').at(-1));
  };

  it('exposes request latency by route pattern and status, in Prometheus text format', async () => {
    const before = await (await fetch(`${app.url}/metrics`)).text();
    const base =
      sample(before, 'scribe_http_request_duration_seconds_count', 'method="GET",route="/healthz",status="200"') ?? 0;
    await fetch(`${app.url}/healthz`);
    await fetch(`${app.url}/healthz`);
    await fetch(`${app.url}/no/such/route/123`);
    const res = await fetch(`${app.url}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(
      sample(text, 'scribe_http_request_duration_seconds_count', 'method="GET",route="/healthz",status="200"'),
    ).toBe(base + 2);
    expect(
      sample(text, 'scribe_http_request_duration_seconds_count', 'method="GET",route="(unmatched)",status="404"'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('/no/such/route/123');
  });

  it('refreshes state gauges at scrape time and reports counters', async () => {
    let depth = 7;
    const stop = onScrape(async () => {
      workerQueueDepth.set(depth);
    });
    try {
      ingestedEvents.inc({ class: 'ai' }, 3);
      let text = await (await fetch(`${app.url}/metrics`)).text();
      expect(text).toMatch(/^scribe_worker_queue_depth 7$/m);
      expect(sample(text, 'scribe_ingested_events_total', 'class="ai"')).toBeGreaterThanOrEqual(3);
      depth = 2;
      text = await (await fetch(`${app.url}/metrics`)).text();
      expect(text).toMatch(/^scribe_worker_queue_depth 2$/m);
    } finally {
      stop();
    }
  });
});
