import { assistantFromReferrer, normalizeReferrer } from '../../../src/analytics/ingest/classify-referrer.js';

describe('referrers', () => {
  it('recognises AI assistants, subdomains included', () => {
    expect(assistantFromReferrer('https://chatgpt.com/')).toBe('ChatGPT');
    expect(assistantFromReferrer('https://www.perplexity.ai/search/abc')).toBe('Perplexity');
    expect(assistantFromReferrer('https://claude.ai/chat/123')).toBe('Claude');
    expect(assistantFromReferrer('https://www.google.com/')).toBeUndefined();
    expect(assistantFromReferrer('https://notclaude.ai/')).toBeUndefined();
    expect(assistantFromReferrer('garbage')).toBeUndefined();
  });

  it('keeps origin and path only', () => {
    expect(normalizeReferrer('https://chatgpt.com/c/abc?q=secret#frag')).toBe('https://chatgpt.com/c/abc');
    expect(normalizeReferrer('javascript:alert(1)')).toBeNull();
    expect(normalizeReferrer('-')).toBeNull();
    expect(normalizeReferrer(undefined)).toBeNull();
  });
});
