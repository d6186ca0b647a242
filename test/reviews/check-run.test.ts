import { DRAFT_ACTION, MAX_SUMMARY, capSummary } from '../../src/reviews/check-run.js';

describe('capSummary', () => {
  it('keeps a summary within the Checks API limit and says it was cut, at a line end', () => {
    const short = 'one\ntwo';
    expect(capSummary(short)).toBe(short);
    const long = Array.from({ length: 5_000 }, (_, i) => `- page-${i}.md: \`--flag-${i}\``).join('\n');
    const capped = capSummary(long);
    expect(capped.length).toBeLessThanOrEqual(MAX_SUMMARY);
    expect(capped.endsWith('(cut at the Checks API limit of 65,535 characters)')).toBe(true);
    expect(capped.split('\n\n…')[0].endsWith('`')).toBe(true);
  });

  it('offers an action GitHub accepts (label 20, description 40, identifier 20 characters at most)', () => {
    expect(DRAFT_ACTION.label.length).toBeLessThanOrEqual(20);
    expect(DRAFT_ACTION.description.length).toBeLessThanOrEqual(40);
    expect(DRAFT_ACTION.identifier).toBe('draft-docs');
  });
});
