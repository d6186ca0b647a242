import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyticsAiRoutes } from '../../../../src/http/routes/analytics-ai.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';
import { aiTrafficViews, writeRangesFile } from '../../../support/ai-traffic.js';

// The fixtures were written by the raw-scan implementation (before the rollups) from these same views: the CSV
// export must not change by a byte.
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/analytics');

describe.each(PROVIDERS)('the ai/purposes CSV export on %s', (provider) => {
  let app: TestApp;
  let ranges: { dir: string; file: string };
  let projectId: string;
  let key: string;
  beforeAll(async () => {
    ranges = writeRangesFile();
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsAiRoutes({ analytics })],
      env: { SCRIBE_AI_RANGES_FILE: ranges.file },
      clock: () => new Date('2026-11-24T00:00:00Z'),
    });
    projectId = (await app.project()).id;
    key = await app.key(projectId, 'read');
    const views = aiTrafficViews({ start: Date.parse('2026-11-17T00:00:00Z'), days: 6, count: 600 });
    const result = await app.services.analytics.ingest(projectId, views);
    expect(result).toMatchObject({ accepted: 600, duplicates: 64, rejected: [] });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(ranges.dir, { recursive: true, force: true });
  });

  it.each([
    ['whole days', 'dateFrom=2026-11-17&dateTo=2026-11-24', 'ai-purposes-whole-days.csv'],
    ['partial days', 'dateFrom=2026-11-18T06:30:00Z&dateTo=2026-11-21T12:00:00Z', 'ai-purposes-partial-days.csv'],
  ])('is byte-identical to the raw-scan export over %s', async (_name, query, fixture) => {
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/ai/purposes?${query}&format=csv`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(fs.readFileSync(path.join(FIXTURES, fixture)));
  });
});
