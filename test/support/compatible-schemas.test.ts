import { compatibleValidators } from './compatible-schemas.js';

const v = compatibleValidators();
const job = {
  id: 'job_1',
  status: 'completed',
  source: { repository: 'https://github.acme.test/acme/docs', ref: 'scribe/fix-typos' },
  model: 'claude-sonnet-4-6',
  prLink: 'https://github.acme.test/acme/docs/pull/7',
  createdAt: '2026-11-21T10:00:00.000Z',
  archivedAt: null,
  summary: 'extra fields are allowed',
};

describe('the compatible response shapes the tests check against', () => {
  it('accept what the contract describes, extra fields included', () => {
    expect(v.agentJob(job)).toBe(true);
    expect(v.agentJob({ ...job, prLink: null, status: 'active' })).toBe(true);
    expect(
      v.visitors({
        totals: { human: 2, ai: 1, total: 3 },
        visitors: [{ path: '/a', human: 2, ai: 1, total: 3 }],
        hasMore: false,
      }),
    ).toBe(true);
    expect(v.views({ totals: { human: 0, ai: 0, total: 0 }, views: [], hasMore: true })).toBe(true);
    expect(v.error({ error: 'Invalid query parameters', details: [{ message: 'limit must be 1..250' }] })).toBe(true);
    const base = {
      id: '1',
      path: '/a',
      comment: null,
      createdAt: '2026-11-21T10:00:00.000Z',
      source: 'thumbs_only',
      status: 'pending',
    };
    expect(
      v.feedback({
        feedback: [base, { ...base, source: 'contextual', helpful: true, contact: null }],
        nextCursor: null,
        hasMore: false,
      }),
    ).toBe(true);
    expect(
      v.feedbackByPage({ feedback: [{ path: '/a', thumbsUp: 1, thumbsDown: 0, code: 0, total: 1 }], hasMore: false }),
    ).toBe(true);
    expect(
      v.searches({
        searches: [
          { searchQuery: 'auth', hits: 2, ctr: 0.5, topClickedPage: null, lastSearchedAt: '2026-11-21T10:00:00.000Z' },
        ],
        totalSearches: 2,
        nextCursor: 'x',
      }),
    ).toBe(true);
  });

  it('refuse feedback and search shapes with missing or mistyped fields', () => {
    const base = { id: '1', path: '/a', comment: null, createdAt: null, source: 'thumbs_only', status: 'pending' };
    expect(v.feedback({ feedback: [{ ...base, status: 'open' }], nextCursor: null, hasMore: false })).toBe(false);
    expect(v.feedback({ feedback: [{ ...base, id: 1 }], nextCursor: null, hasMore: false })).toBe(false);
    expect(v.feedback({ feedback: [], hasMore: false })).toBe(false);
    expect(v.feedbackByPage({ feedback: [{ path: '/a', thumbsUp: 1, thumbsDown: 0, total: 1 }], hasMore: false })).toBe(
      false,
    );
    expect(v.searches({ searches: [], totalSearches: -1, nextCursor: null })).toBe(false);
    expect(
      v.searches({
        searches: [{ searchQuery: 'auth', hits: 2, ctr: 0.5, lastSearchedAt: 'x' }],
        totalSearches: 2,
        nextCursor: null,
      }),
    ).toBe(false);
  });

  it('refuse missing and mistyped fields', () => {
    expect(v.agentJob({ ...job, status: 'queued' })).toBe(false);
    expect(v.agentJob({ ...job, createdAt: 'yesterday' })).toBe(false);
    const { archivedAt: _, ...noArchivedAt } = job;
    expect(v.agentJob(noArchivedAt)).toBe(false);
    expect(v.visitors({ totals: { human: 2, ai: 1 }, visitors: [], hasMore: false })).toBe(false);
    expect(
      v.visitors({
        totals: { human: 2, ai: 1, total: 3 },
        visitors: [{ path: '/a', human: '2', ai: 1, total: 3 }],
        hasMore: false,
      }),
    ).toBe(false);
    expect(v.views({ totals: { human: 0, ai: 0, total: 0 }, visitors: [], hasMore: true })).toBe(false);
    expect(v.error({ message: 'no error field' })).toBe(false);
    expect(v.error({ error: 'x', details: [{}] })).toBe(false);
  });
});
