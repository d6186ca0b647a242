import { Writable } from 'node:stream';
import { Analytics } from '../../../src/analytics/analytics.js';
import type { FeedbackStored } from '../../../src/analytics/signals/feedback-stored.js';
import { FEEDBACK_PER_VISITOR_HOUR } from '../../../src/analytics/signals/submit-feedback.js';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { PROVIDERS, createTestDatabase } from '../../support/databases.js';
import { fixedClock } from '../../support/clock.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe.each(PROVIDERS)('stored feedback is told, and read back by page, on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let analytics: Analytics;
  const told: FeedbackStored[] = [];
  const logs: Record<string, unknown>[] = [];
  let failListener = false;
  const clock = fixedClock('2026-11-23T12:00:00.000Z');
  let n = 0;
  const project = () => `prj_stored_${provider}_${++n}`;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
          logs.push(JSON.parse(line) as Record<string, unknown>);
        callback();
      },
    });
    analytics = new Analytics({
      target: database.target,
      secret: 'stored-secret-stored-secret-stored-secr',
      config: loadConfig({}).analytics,
      logger: createLogger('info', sink),
      clock,
    });
    analytics.onFeedbackStored(async (stored) => {
      if (failListener) throw new Error('automations are down');
      told.push(stored);
    });
  });
  afterAll(async () => {
    await analytics.close();
    await database.drop();
  });
  beforeEach(() => {
    told.length = 0;
  });

  it('tells only what was stored: not duplicates, rate-limited or rejected items', async () => {
    const signals = analytics.readerSignals();
    const projectId = project();
    const result = await signals.submitFeedback(projectId, [
      { path: '/guides/install', helpful: false, key: 'id:a' },
      { path: 'https://docs.acme.test/guides/install?x=1', helpful: false, comment: 'Step 3?' },
      { path: '/logo.png', helpful: false },
      { path: '/api', helpful: true, key: 'id:a' },
    ]);
    expect(result).toMatchObject({ accepted: 3, duplicates: 1 });
    expect(told).toEqual([
      {
        projectId,
        rows: [
          { id: expect.any(Number), path: '/guides/install', outcome: 'stored', newComment: false },
          { id: expect.any(Number), path: '/guides/install', outcome: 'stored', newComment: true },
        ],
      },
    ]);

    told.length = 0;
    const visitor = { ip: '198.51.100.7', userAgent: CHROME };
    const burst = Array.from({ length: FEEDBACK_PER_VISITOR_HOUR + 3 }, () => ({
      ...visitor,
      path: '/limits',
      helpful: false,
    }));
    const limited = await signals.submitFeedback(projectId, burst);
    expect(limited.rejected).toHaveLength(3);
    expect(told.flatMap((t) => t.rows)).toHaveLength(FEEDBACK_PER_VISITOR_HOUR);
    told.length = 0;
    await signals.submitFeedback(projectId, [{ ...visitor, path: '/limits', helpful: false }]);
    await signals.submitFeedback(projectId, [{ path: '/limits', helpful: false, key: 'id:a' }]);
    expect(told).toEqual([]);
  });

  it('tells a widget comment that completes its vote as an update with a new comment, once', async () => {
    const signals = analytics.readerSignals();
    const projectId = project();
    const reader = { ip: '198.51.100.8', userAgent: CHROME, path: '/guides/x', submission: 'sub_0123456789' };
    await signals.submitFeedback(projectId, [{ ...reader, helpful: false }], 'update');
    await signals.submitFeedback(projectId, [{ ...reader, helpful: false, comment: 'Missing a step' }], 'update');
    await signals.submitFeedback(projectId, [{ ...reader, helpful: false, comment: 'Missing a step' }], 'update');
    const [vote, comment, again] = told.map((t) => t.rows[0]);
    expect(vote).toMatchObject({ outcome: 'stored', newComment: false });
    expect(comment).toEqual({ id: vote.id, path: '/guides/x', outcome: 'updated', newComment: true });
    expect(again).toEqual({ id: vote.id, path: '/guides/x', outcome: 'updated', newComment: false });
  });

  it('tells comment-only feedback (no vote) as a new comment, which the page window counts as a comment only', async () => {
    const signals = analytics.readerSignals();
    const projectId = project();
    const result = await signals.submitFeedback(projectId, [{ path: '/guides/z', comment: 'Step 3 is missing' }]);
    expect(result).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    expect(told).toEqual([
      { projectId, rows: [{ id: expect.any(Number), path: '/guides/z', outcome: 'stored', newComment: true }] },
    ]);
    const windows = await signals.pageWindows({
      projectId,
      receivedSince: 0,
      pages: [{ path: '/guides/z', afterId: 0 }],
    });
    expect(windows.get('/guides/z')).toMatchObject({ thumbsUp: 0, thumbsDown: 0, comments: 1 });
    const [comment] = await signals.pageComments({
      projectId,
      path: '/guides/z',
      afterId: 0,
      throughId: told[0].rows[0].id,
      receivedSince: 0,
      limit: 5,
    });
    expect(comment).toMatchObject({ helpful: null, comment: 'Step 3 is missing' });
  });

  it('stores and answers the submission when the listener fails, and logs why', async () => {
    const projectId = project();
    failListener = true;
    try {
      const result = await analytics.readerSignals().submitFeedback(projectId, [{ path: '/guides/y', helpful: false }]);
      expect(result).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    } finally {
      failListener = false;
    }
    expect(logs.find((l) => l.msg === 'acting on stored feedback failed')).toMatchObject({
      project: projectId,
      err: { message: 'automations are down' },
    });
    const windows = await analytics
      .readerSignals()
      .pageWindows({ projectId, receivedSince: 0, pages: [{ path: '/guides/y', afterId: 0 }] });
    expect(windows.get('/guides/y')).toMatchObject({ thumbsDown: 1 });
  });

  it("reads pages' feedback windows after a row and since a time, thumbs as votes only, and all-time thumbs", async () => {
    const signals = analytics.readerSignals();
    const projectId = project();
    const other = project();
    await signals.submitFeedback(projectId, [{ path: '/a', helpful: false }]);
    const [first] = told.at(-1)!.rows;
    clock.advance(60_000);
    const since = clock().getTime();
    await signals.submitFeedback(projectId, [
      { path: '/a', helpful: false },
      { path: '/a', helpful: true, comment: 'nice' },
      { path: '/a', source: 'code_snippet', code: 'curl', helpful: false, comment: 'fails' },
      { path: '/b', helpful: false },
    ]);
    await signals.submitFeedback(other, [{ path: '/a', helpful: false }]);
    const rows = told.flatMap((t) => (t.projectId === projectId ? t.rows : []));
    const windows = await signals.pageWindows({
      projectId,
      receivedSince: since,
      pages: [
        { path: '/a', afterId: 0 },
        { path: '/b', afterId: 0 },
        { path: '/c', afterId: 0 },
      ],
    });
    expect(windows.get('/a')).toEqual({ through: rows[3].id, thumbsUp: 1, thumbsDown: 1, comments: 2 });
    expect(windows.get('/b')).toEqual({ through: rows[4].id, thumbsUp: 0, thumbsDown: 1, comments: 0 });
    expect(windows.get('/c')).toEqual({ through: null, thumbsUp: 0, thumbsDown: 0, comments: 0 });
    // after a row: only later ones count (a run covered the rest)
    const later = await signals.pageWindows({
      projectId,
      receivedSince: 0,
      pages: [
        { path: '/a', afterId: rows[1].id },
        { path: '/b', afterId: first.id },
      ],
    });
    expect(later.get('/a')).toEqual({ through: rows[3].id, thumbsUp: 1, thumbsDown: 0, comments: 2 });
    expect(later.get('/b')).toMatchObject({ thumbsDown: 1 });
    expect(await signals.pageThumbs(projectId, '/a')).toEqual({ thumbsUp: 1, thumbsDown: 2 });
    const comments = await signals.pageComments({
      projectId,
      path: '/a',
      afterId: first.id,
      throughId: rows[3].id,
      receivedSince: since,
      limit: 1,
    });
    expect(comments).toEqual([{ id: rows[3].id, ts: since, helpful: false, comment: 'fails' }]);
  });
});
