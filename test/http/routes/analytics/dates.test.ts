import { analyticsRoutes } from '../../../../src/http/routes/analytics.js';
import { startTestApp, type TestApp } from '../../../support/test-app.js';
import { PROVIDERS } from '../../../support/databases.js';
import { compatibleValidators } from '../../../support/compatible-schemas.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const validators = compatibleValidators();

type Counts = { human: number; ai: number; total: number };

describe.each(PROVIDERS)('analytics dates on %s', (provider) => {
  let app: TestApp;
  let projectId: string;
  let key: string;

  beforeAll(async () => {
    app = await startTestApp({
      provider,
      routes: ({ analytics }) => [analyticsRoutes({ analytics })],
      clock: () => NOW,
    });
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    projectId = (await app.project()).id;
    key = await app.key(projectId, 'write');
  });

  const post = (kind: 'events' | 'logs', body: string, contentType: string) =>
    fetch(`${app.url}/v1/analytics/${projectId}/${kind}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
      body,
    });

  async function get(kind: 'visitors' | 'views', query: Record<string, string>) {
    const res = await fetch(`${app.url}/v1/analytics/${projectId}/${kind}?${new URLSearchParams(query)}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return { status: res.status, body: (await res.json()) as { totals: Counts; details?: { message: string }[] } };
  }

  it('rejects event timestamps that are no real time or before 1970, and stores real ones at the time written', async () => {
    const event = (timestamp: string) => ({ timestamp, path: '/p', userAgent: CHROME, ip: '203.0.113.1' });
    const impossible = [
      '2026-02-31T10:00:00Z',
      '2025-02-29T10:00:00Z',
      '2026-11-20T24:00:00Z',
      '2026-11-20T10:60:00Z',
      '2026-11-20T10:00:60Z',
      '2026-11-20T10:00:00+24:00',
      '2026-13-01T10:00:00Z',
    ];
    const early = ['1969-12-31T23:59:59.999Z', '0050-01-01T00:00:00Z', '1970-01-01T00:30:00+01:00'];
    const real = ['2024-02-29T10:00:00Z', '1970-01-01T00:00:00Z', '2026-11-20T23:30:00.5-01:30'];
    const res = await post('events', JSON.stringify([...impossible, ...early, ...real].map(event)), 'application/json');
    const body = (await res.json()) as { accepted: number; rejected: { index: number; error: string }[] };
    expect(body.accepted).toBe(3);
    expect(body.rejected.map((r) => r.index)).toEqual([...impossible, ...early].map((_, i) => i));
    for (const r of body.rejected.slice(0, impossible.length))
      expect(r.error).toBe('timestamp: must be an ISO 8601 date-time with a zone, and a real one');
    for (const r of body.rejected.slice(impossible.length))
      expect(r.error).toBe('timestamp: must not be before 1970-01-01T00:00:00Z');
    // 29 February 2024 is stored on its day; 31 February 2026 is not stored as 3 March
    expect((await get('views', { dateFrom: '2024-02-29', dateTo: '2024-03-01' })).body.totals.total).toBe(1);
    expect((await get('views', { dateFrom: '1970-01-01', dateTo: '1970-01-02' })).body.totals.total).toBe(1);
    expect(
      (await get('views', { dateFrom: '2026-11-21T01:00:00.500Z', dateTo: '2026-11-21T01:00:00.501Z' })).body.totals
        .total,
    ).toBe(1);
    expect((await get('views', { dateFrom: '2026-03-01', dateTo: '2026-03-05' })).body.totals.total).toBe(0);
  });

  it('reads log-line times strictly, and skips lines before 1970 or more than a day ahead', async () => {
    const line = (time: string) => `203.0.113.1 - - [${time}] "GET /p HTTP/1.1" 200 1 "-" "${CHROME}"`;
    const times = [
      '31/Feb/2026:10:00:00 +0000',
      '20/Nov/2026:24:00:00 +0000',
      '20/Nov/2026:10:00:61 +0000',
      '20/Nov/2026:10:00:00 +2460',
      '20/Nov/1969:10:00:00 +0000',
      '20/Nov/2027:10:00:00 +0000',
      '22/Nov/2026:11:59:59 +0000',
      '29/Feb/2024:10:00:00 +0000',
    ];
    const summary = (await (await post('logs', times.map(line).join('\n'), 'text/plain')).json()) as {
      accepted: number;
      skipped: Record<string, number>;
    };
    expect(summary.accepted).toBe(2);
    expect(summary.skipped).toEqual({
      'malformed: unreadable time "31/Feb/2026:10:00:00 +0000"': 1,
      'malformed: unreadable time "20/Nov/2026:24:00:00 +0000"': 1,
      'malformed: unreadable time "20/Nov/2026:10:00:61 +0000"': 1,
      'malformed: unreadable time "20/Nov/2026:10:00:00 +2460"': 1,
      'timestamp: must not be before 1970-01-01T00:00:00Z': 1,
      'timestamp: must not be more than a day ahead of now': 1,
    });
    expect((await get('views', { dateFrom: '2024-02-29', dateTo: '2024-03-01' })).body.totals.total).toBe(1);
    expect((await get('views', { dateFrom: '2026-11-22', dateTo: '2026-11-23' })).body.totals.total).toBe(1);

    const record = (ts: unknown) =>
      JSON.stringify({
        ClientIP: '203.0.113.1',
        ClientRequestMethod: 'GET',
        ClientRequestURI: '/p',
        EdgeResponseStatus: 200,
        ClientRequestUserAgent: CHROME,
        EdgeStartTimestamp: ts,
      });
    const cloudflare = (await (
      await post(
        'logs',
        ['2026-02-31T10:00:00Z', '2026-11-20T10:00:00Z'].map(record).join('\n'),
        'application/x-ndjson',
      )
    ).json()) as { accepted: number; skipped: Record<string, number> };
    expect(cloudflare).toMatchObject({ accepted: 1, skipped: { 'malformed: no usable timestamp': 1 } });
  });

  it('refuses impossible and out-of-range query dates in every form with the JSON 400 error', async () => {
    const cases: Record<string, string>[] = [
      { dateFrom: '2026-02-31' },
      { dateFrom: '2026-02-31T00:00Z' },
      { dateFrom: '2026-02-28T24:00Z' },
      { dateTo: '2026-11-20T10:00:00+24:00' },
      { dateFrom: '0050-01-01', dateTo: '0060-01-01' },
      { dateFrom: '0050-01-01T00:00:00Z', dateTo: '0060-01-01T00:00:00Z' },
      { dateFrom: '1969-12-31' },
      { dateFrom: '1970-01-01T00:30+01:00' },
      { dateTo: '10000-01-01' },
    ];
    for (const query of cases) {
      for (const kind of ['visitors', 'views'] as const) {
        const { status, body } = await get(kind, query);
        expect({ query, status }).toEqual({ query, status: 400 });
        expect(validators.error(body)).toBe(true);
        expect(body.details?.length).toBeGreaterThan(0);
      }
    }
    // the edges of the accepted range, and a leap day
    expect((await get('visitors', { dateFrom: '1970-01-01', dateTo: '9999-12-31T23:59:59.999Z' })).status).toBe(200);
    expect((await get('views', { dateFrom: '2024-02-29', dateTo: '2024-02-29T12:00+02:00' })).status).toBe(200);
  });
});
