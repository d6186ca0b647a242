import {
  assistantFromReferrer,
  assistantFromUtmSource,
  normalizeReferrer,
} from '../../../src/analytics/ingest/classify-referrer.js';

describe('referrers', () => {
  it('recognises AI assistants, subdomains included', () => {
    expect(assistantFromReferrer('https://chatgpt.com/')).toBe('ChatGPT');
    expect(assistantFromReferrer('https://www.perplexity.ai/search/abc')).toBe('Perplexity');
    expect(assistantFromReferrer('https://claude.ai/chat/123')).toBe('Claude');
    expect(assistantFromReferrer('https://www.google.com/')).toBeUndefined();
    expect(assistantFromReferrer('https://notclaude.ai/')).toBeUndefined();
    expect(assistantFromReferrer('garbage')).toBeUndefined();
  });

  it('reads an assistant from utm_source however the URL spells the name, and none where no name is', () => {
    expect(assistantFromUtmSource('/guide?utm_source=chatgpt.com')).toBe('ChatGPT');
    expect(assistantFromUtmSource('https://docs.example.com/guide?a=1&utm_source=Perplexity')).toBe('Perplexity');
    // spelled with a percent escape, or split by a tab or newline that URL parsing drops
    expect(assistantFromUtmSource('/guide?utm%5Fsource=chatgpt.com')).toBe('ChatGPT');
    expect(assistantFromUtmSource('/guide?%75tm_source=claude.ai')).toBe('Claude');
    expect(assistantFromUtmSource('/guide?utm_so\turce=chatgpt.com')).toBe('ChatGPT');
    expect(assistantFromUtmSource('/guide?utm_\nsource=chatgpt.com')).toBe('ChatGPT');
    expect(assistantFromUtmSource('/guide?utm_source=newsletter')).toBeUndefined();
    expect(assistantFromUtmSource('/guide?source=chatgpt.com')).toBeUndefined();
    expect(assistantFromUtmSource('/guide#utm_source=chatgpt.com')).toBeUndefined();
    expect(assistantFromUtmSource('/guide')).toBeUndefined();
  });

  it('keeps origin and path only', () => {
    expect(normalizeReferrer('https://chatgpt.com/c/abc?q=secret#frag')).toBe('https://chatgpt.com/c/abc');
    expect(normalizeReferrer('javascript:alert(1)')).toBeNull();
    expect(normalizeReferrer('-')).toBeNull();
    expect(normalizeReferrer(undefined)).toBeNull();
  });
});
