import { leaseLosses, onScrape, renderMetrics, workerQueueDepth } from '../../src/metrics/metrics.js';

describe('metrics', () => {
  it('renders the Prometheus text format, refreshing gauges through the scrape collectors first', async () => {
    let depth = 3;
    const stop = onScrape(async () => {
      workerQueueDepth.set(depth);
    });
    try {
      leaseLosses.inc();
      const { contentType, body } = await renderMetrics();
      expect(contentType).toMatch(/^text\/plain/);
      expect(body).toMatch(/^scribe_worker_queue_depth 3$/m);
      expect(body).toMatch(/^scribe_worker_lease_losses_total [1-9]\d*$/m);
      depth = 5;
      expect((await renderMetrics()).body).toMatch(/^scribe_worker_queue_depth 5$/m);
    } finally {
      stop();
    }
  });

  it('still renders when a collector fails, and stops calling one that was removed', async () => {
    let calls = 0;
    const stopFailing = onScrape(async () => {
      throw new Error('database down');
    });
    const stopCounting = onScrape(async () => {
      calls++;
    });
    await expect(renderMetrics()).resolves.toMatchObject({
      body: expect.stringContaining('scribe_worker_queue_depth'),
    });
    stopFailing();
    stopCounting();
    await renderMetrics();
    expect(calls).toBe(1);
  });
});
