import { redirectRules } from '../../src/agent/redirect-rules.js';

describe('redirectRules', () => {
  const rules = redirectRules({
    redirects: [
      { source: '/guides/deploy', destination: '/guides/deployment' },
      { source: '/legacy/:slug*', destination: '/guides/:slug*' },
      { source: '/v1/:version/api', destination: '/api' },
      { source: '/blog/*', destination: 'https://blog.example.com' },
      { source: 42, destination: '/ignored' },
    ],
  });

  it('matches exact sources whatever the trailing slash, query or fragment', () => {
    expect(['/guides/deploy', '/guides/deploy/', '/guides/deploy?x=1#top', 'guides/deploy'].every(rules.matches)).toBe(
      true,
    );
    expect(rules.matches('/guides/deploy-old')).toBe(false);
  });

  it('matches :param, :param* and * patterns', () => {
    expect(['/legacy', '/legacy/a', '/legacy/a/b', '/v1/2/api', '/blog/post'].every(rules.matches)).toBe(true);
    expect(['/legacyx', '/v1/2/3/api', '/v1//api'].some(rules.matches)).toBe(false);
  });

  it('keeps only well-formed entries', () => {
    expect(rules.list).toHaveLength(4);
    expect(redirectRules({}).list).toEqual([]);
  });
});
