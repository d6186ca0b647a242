import { feedbackReasons, followsPage, lateComments } from '../../src/automations/evaluate-feedback.js';
import type { FeedbackTrigger } from '../../src/automations/parse-config.js';

const trigger = (on: Partial<FeedbackTrigger>): FeedbackTrigger => ({
  kind: 'feedback',
  thumbsDown: null,
  comment: false,
  pages: null,
  ...on,
});

describe('feedbackReasons', () => {
  it('starts a run once the thumbs-down since the last run reach the threshold, not before', () => {
    const three = trigger({ thumbsDown: 3 });
    expect(feedbackReasons(three, { thumbsDown: 2, comments: 5 })).toEqual([]);
    expect(feedbackReasons(three, { thumbsDown: 3, comments: 0 })).toEqual(['3 thumbs-down (threshold: 3)']);
    // two readers crossing at once: still one reason, with the count
    expect(feedbackReasons(three, { thumbsDown: 4, comments: 0 })).toEqual(['4 thumbs-down (threshold: 3)']);
  });

  it('starts a run on a new comment only when the trigger takes comments', () => {
    expect(feedbackReasons(trigger({ comment: true }), { thumbsDown: 0, comments: 1 })).toEqual(['1 new comment']);
    expect(feedbackReasons(trigger({ comment: true }), { thumbsDown: 9, comments: 0 })).toEqual([]);
    expect(feedbackReasons(trigger({ thumbsDown: 1, comment: true }), { thumbsDown: 1, comments: 2 })).toEqual([
      '1 thumbs-down (threshold: 1)',
      '2 new comments',
    ]);
  });
});

describe('followsPage', () => {
  it('matches page globs on the stored path, every page without them', () => {
    const guides = trigger({ comment: true, pages: ['/guides/**', '/api/*.md'] });
    expect(followsPage(guides, '/guides/install')).toBe(true);
    expect(followsPage(guides, '/guides/a/b')).toBe(true);
    expect(followsPage(guides, '/api/x.md')).toBe(true);
    expect(followsPage(guides, '/api/x/y.md')).toBe(false);
    expect(followsPage(guides, '/blog/guides/install')).toBe(false);
    expect(followsPage(trigger({ comment: true }), '/anything/.hidden')).toBe(true);
  });
});

describe('lateComments', () => {
  it('picks new comments on rows an earlier run covered, for triggers that take comments', () => {
    const rows = [
      { id: 4, newComment: true },
      { id: 5, newComment: false },
      { id: 9, newComment: true },
    ];
    expect(lateComments(trigger({ thumbsDown: 1, comment: true }), rows, 5)).toEqual([{ id: 4, newComment: true }]);
    expect(lateComments(trigger({ thumbsDown: 1 }), rows, 5)).toEqual([]);
    expect(lateComments(trigger({ comment: true }), rows, 0)).toEqual([]);
  });
});
