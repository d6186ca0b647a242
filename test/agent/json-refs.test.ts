import { loadJsonWithRefs, resolveJsonRefs } from '../../src/agent/json-refs.js';
import { mintlifyGeneratedPageDirs, mintlifyNavigationEntries } from '../../src/agent/navigation-pages.js';

const FILES: Record<string, string> = {
  'docs.json': JSON.stringify({
    theme: 'mint',
    navigation: {
      languages: [
        {
          language: 'en',
          groups: [{ group: 'Start', root: 'overview', pages: ['index', 'GET /users', 'spec.json POST /users'] }],
        },
        { $ref: './nav/es.json' },
      ],
    },
    redirects: { $ref: 'config/redirects.json' },
  }),
  'nav/es.json': JSON.stringify({
    language: 'es',
    groups: [{ group: 'Guías', pages: ['es/index', { $ref: './more.json' }] }],
    tag: 'overridden',
  }),
  'nav/more.json': JSON.stringify(['es/more']),
  'config/redirects.json': JSON.stringify([{ source: '/old', destination: '/new' }]),
  'broken.json': '{ "navigation": ',
};
const read = (file: string) => Promise.resolve(FILES[file]);

describe('$ref configs', () => {
  it('loads every file the config reaches, nested references relative to the file that holds them', async () => {
    const files = await loadJsonWithRefs('docs.json', read);
    expect([...files.keys()]).toEqual(['docs.json', 'nav/es.json', 'config/redirects.json', 'nav/more.json']);
    expect(resolveJsonRefs(files, 'docs.json')).toMatchObject({ redirects: [{ source: '/old', destination: '/new' }] });
  });

  it('names each navigation page with the file it is in, including group roots, and skips generated API pages', async () => {
    const files = await loadJsonWithRefs('docs.json', read);
    expect(mintlifyNavigationEntries(files, 'docs.json')).toEqual([
      { kind: 'page', value: 'overview', file: 'docs.json' },
      { kind: 'page', value: 'index', file: 'docs.json' },
      { kind: 'page', value: 'es/index', file: 'nav/es.json' },
      { kind: 'page', value: 'es/more', file: 'nav/more.json' },
    ]);
  });

  it('lists OpenAPI specs named in the navigation (string, list or { source }) and in api.openapi, but not URLs', () => {
    const config = {
      navigation: {
        tabs: [
          {
            tab: 'API',
            openapi: 'api/a.json',
            groups: [{ group: 'B', openapi: { source: '/api/b.yaml', directory: 'b' }, pages: [] }],
          },
          { tab: 'C', openapi: ['c.json', 'https://example.com/c.json'] },
        ],
      },
      api: { openapi: 'api/d.json' },
    };
    expect(
      mintlifyNavigationEntries(new Map([['docs.json', { value: config }]]), 'docs.json').map(
        (e) => `${e.kind} ${e.value}`,
      ),
    ).toEqual(['openapi api/a.json', 'openapi /api/b.yaml', 'openapi c.json', 'openapi api/d.json']);
  });

  it('finds where pages are generated from a spec: beside openapi entries or operations, an openapi directory, or api-reference', () => {
    const navigation = {
      tabs: [
        { tab: 'API', groups: [{ group: 'Endpoints', pages: ['api/overview', 'GET /users'] }] },
        { tab: 'Admin', openapi: { source: 'admin.json', directory: 'admin-api' } },
        { tab: 'Other', openapi: 'other.json' },
        { tab: 'Guides', pages: ['guides/a'] },
      ],
    };
    expect(mintlifyGeneratedPageDirs({ navigation })).toEqual(['api', 'admin-api', 'api-reference']);
  });

  it('records files that are missing or not JSON', async () => {
    const files = await loadJsonWithRefs('root.json', (file) =>
      Promise.resolve(
        file === 'root.json' ? '{"a": {"$ref": "gone.json"}, "b": {"$ref": "broken.json"}}' : FILES[file],
      ),
    );
    expect(files.get('gone.json')).toEqual({ missing: true });
    expect(files.get('broken.json')?.error).toMatch(/JSON/);
  });
});
