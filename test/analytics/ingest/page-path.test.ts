import { isRawMarkdown, pagePath, urlHostname } from '../../../src/analytics/ingest/page-path.js';

describe('pagePath', () => {
  it('reduces URLs and paths to the page path', () => {
    expect(pagePath('https://docs.example.com/guides/auth?x=1#y')).toBe('/guides/auth');
    expect(pagePath('/guides/auth/')).toBe('/guides/auth');
    expect(pagePath('/')).toBe('/');
    expect(pagePath('//')).toBe('/');
    expect(pagePath('/llms.txt')).toBe('/llms.txt');
    expect(pagePath('/docs/llms-full.txt')).toBe('/docs/llms-full.txt');
  });

  it('reads a raw Markdown variant as the page it is of', () => {
    expect(pagePath('/quickstart.md')).toBe('/quickstart');
    expect(pagePath('https://docs.example.com/guide/intro.MD?x=1')).toBe('/guide/intro');
    expect(pagePath('/guide/intro.md/')).toBe('/guide/intro');
    expect(pagePath('/index.md')).toBe('/index');
    expect(pagePath('/.md')).toBe('/');
    expect(pagePath('/guide/intro.mdx')).toBe('/guide/intro.mdx');
  });

  it('knows raw Markdown requests: .md pages, llms.txt and llms-full.txt in any folder', () => {
    for (const p of [
      '/quickstart.md',
      'https://docs.example.com/a/b.md#x',
      '/llms.txt',
      '/llms-full.txt',
      '/docs/llms.txt?v=2',
    ])
      expect({ p, raw: isRawMarkdown(p) }).toEqual({ p, raw: true });
    for (const p of ['/quickstart', '/guide/intro.mdx', '/notllms.txt', '/llms.txt.html', '/md', 'relative.md'])
      expect({ p, raw: isRawMarkdown(p) }).toEqual({ p, raw: false });
  });

  it('drops static assets, well-known non-pages and non-paths', () => {
    for (const p of [
      '/logo.png',
      '/a/b.JPG',
      '/app.css',
      '/main.js',
      '/fonts/inter.woff2',
      '/favicon.ico',
      '/robots.txt',
      '/sitemap.xml',
      '/_next/data/x',
      '/openapi.json',
    ]) {
      expect(pagePath(p)).toBeUndefined();
    }
    expect(pagePath('relative/path')).toBeUndefined();
    expect(pagePath('/with space')).toBeUndefined();
    // raw paths only: a URL's path is percent-encoded (an unpaired surrogate as U+FFFD's bytes)
    expect(pagePath('/nul\u0000')).toBeUndefined();
    expect(pagePath('/lone\ud800')).toBeUndefined();
    expect(pagePath('/pair\ud83d\ude00')).toBe('/pair\ud83d\ude00');
    expect(pagePath('https://docs.example.com/lone\ud800')).toBe('/lone%EF%BF%BD');
    expect(pagePath(`/${'a'.repeat(2000)}`)).toBeUndefined();
  });

  it('limits a path to 1,024 UTF-8 bytes, not characters', () => {
    expect(pagePath(`/${'a'.repeat(1023)}`)).toBe(`/${'a'.repeat(1023)}`);
    expect(pagePath(`/${'日'.repeat(341)}`)).toBe(`/${'日'.repeat(341)}`); // 1 + 1,023 bytes
    expect(pagePath(`/${'日'.repeat(342)}`)).toBeUndefined(); // 1,027 bytes in 343 characters
    expect(pagePath(`/${'😀'.repeat(300)}`)).toBeUndefined();
  });

  it('reads hostnames of http(s) URLs only', () => {
    expect(urlHostname('https://Docs.Example.com:8443/x')).toBe('docs.example.com');
    expect(urlHostname('ftp://docs.example.com/')).toBeUndefined();
    expect(urlHostname('nope')).toBeUndefined();
  });
});
