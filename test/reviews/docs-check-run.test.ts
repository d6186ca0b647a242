import { isDocsCheckName, summaryWithDraft } from '../../src/reviews/docs-check-run.js';
import { MAX_SUMMARY } from '../../src/reviews/check-run.js';

describe('summaryWithDraft', () => {
  const link = 'https://github.test/acme/docs/pull/4';

  it('adds a line linking the docs draft once', () => {
    const summary = summaryWithDraft('1 page may need an update', link)!;
    expect(summary).toBe(
      `1 page may need an update\n\n**Docs draft:** [${link}](${link}), kept in step with this pull request.`,
    );
    expect(summaryWithDraft(summary, link)).toBeNull();
  });

  it('stays within the Checks API limit, the link kept', () => {
    const summary = summaryWithDraft('x'.repeat(MAX_SUMMARY), link)!;
    expect(summary.length).toBe(MAX_SUMMARY);
    expect(summary.endsWith('kept in step with this pull request.')).toBe(true);
  });
});

describe('isDocsCheckName', () => {
  it("is the review's check run, named alone or after its automation", () => {
    expect(isDocsCheckName('Scribe docs')).toBe(true);
    expect(isDocsCheckName('Scribe docs (review-api)')).toBe(true);
    expect(isDocsCheckName('Scribe docsify')).toBe(false);
    expect(isDocsCheckName('CI')).toBe(false);
  });
});
