import { commentMarker, reviewCommentBody } from '../../src/reviews/review-comment.js';

describe('reviewCommentBody', () => {
  const base = {
    projectId: 'prj_1',
    automationId: 'review-api',
    headSha: 'abcdef0123456789',
    title: '2 docs pages may need an update',
    summary: '- cli.md:5 `--verbose`',
    checkUrl: 'https://github.test/acme/api/runs/5',
  };

  it('carries the check title and summary while pages are found, and the marker of its automation', () => {
    const body = reviewCommentBody({ ...base, resolved: false });
    expect(body.startsWith(`${commentMarker('prj_1', 'review-api')}\n### Scribe docs: 2 docs pages`)).toBe(true);
    expect(body).toContain('As of abcdef0');
    expect(body).toContain('- cli.md:5 `--verbose`');
  });

  it('says resolved once a push has no impact, and stays under GitHub’s comment limit', () => {
    expect(reviewCommentBody({ ...base, resolved: true })).toContain('### Scribe docs: resolved');
    const huge = reviewCommentBody({ ...base, summary: 'x'.repeat(100_000), resolved: false });
    expect(huge.length).toBeLessThan(65_536);
    expect(huge).toContain('the check has the full list');
  });
});
