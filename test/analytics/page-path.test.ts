import { pagePath, urlHostname } from '../../src/analytics/page-path.js';

describe('pagePath', () => {
  it('reduces URLs and paths to the page path', () => {
    expect(pagePath('https://docs.example.com/guides/auth?x=1#y')).toBe('/guides/auth');
    expect(pagePath('/guides/auth/')).toBe('/guides/auth');
    expect(pagePath('/')).toBe('/');
    expect(pagePath('//')).toBe('/');
    expect(pagePath('/quickstart.md')).toBe('/quickstart.md');
    expect(pagePath('/llms.txt')).toBe('/llms.txt');
  });

  it('drops static assets, well-known non-pages and non-paths', () => {
    for (const p of ['/logo.png', '/a/b.JPG', '/app.css', '/main.js', '/fonts/inter.woff2', '/favicon.ico', '/robots.txt', '/sitemap.xml', '/_next/data/x', '/openapi.json']) {
      expect(pagePath(p)).toBeUndefined();
    }
    expect(pagePath('relative/path')).toBeUndefined();
    expect(pagePath('/with space')).toBeUndefined();
    expect(pagePath(`/${'a'.repeat(2000)}`)).toBeUndefined();
  });

  it('reads hostnames of http(s) URLs only', () => {
    expect(urlHostname('https://Docs.Example.com:8443/x')).toBe('docs.example.com');
    expect(urlHostname('ftp://docs.example.com/')).toBeUndefined();
    expect(urlHostname('nope')).toBeUndefined();
  });
});
