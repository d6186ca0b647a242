import { buildDocsIndex, isDistinctive, lookUp, normalizeRoute } from '../../../src/reviews/impact/docs-index.js';

const index = buildDocsIndex([
  {
    path: 'guide.mdx',
    text: [
      'You connect to the server, then call `client.connect()`.', // 1
      '```bash', // 2
      'acme deploy --force', // 3
      '```', // 4
      'Set ACME_TOKEN, or PORT, or `PORT`.', // 5
      'curl https://api.acme.dev/v1/users/42 or GET /v1/users/{user_id}', // 6
      'See `./examples/app.toml` and <ParamField path="region">.', // 7
      'The error reads "No Project Linked to this directory".', // 8
    ].join('\n'),
  },
  { path: 'api/openapi.yaml', text: 'paths:\n  /v1/users/{id}:\n    get:\n      operationId: connect\n' },
]);
const where = (identifier: string, kind: Parameters<typeof lookUp>[2]) =>
  lookUp(index, identifier, kind).map((m) => `${m.page}:${m.line}`);

describe('the docs index', () => {
  it('matches a plain word only in code (inline code, fences, tags, OpenAPI files)', () => {
    expect(where('connect', 'symbol')).toEqual(['guide.mdx:1', 'api/openapi.yaml:4']);
    expect(where('PORT', 'env-var')).toEqual(['guide.mdx:5']);
    expect(where('region', 'config-key')).toEqual(['guide.mdx:7']);
    expect(where('deploy', 'symbol')).toEqual(['guide.mdx:3']);
  });

  it('matches distinctive names anywhere, and common names nowhere', () => {
    expect(where('ACME_TOKEN', 'env-var')).toEqual(['guide.mdx:5']);
    expect(where('--force', 'cli-flag')).toEqual(['guide.mdx:3']);
    expect(where('examples/app.toml', 'file-path')).toEqual(['guide.mdx:7']);
    expect(where('./examples/app.toml', 'file-path')).toEqual(['guide.mdx:7']);
    expect(where('get', 'symbol')).toEqual([]);
    expect(isDistinctive('createClient')).toBe(true);
    expect(isDistinctive('max_retries')).toBe(true);
    expect(isDistinctive('CreateUser')).toBe(true);
    expect(isDistinctive('Client')).toBe(false);
    expect(isDistinctive('connect')).toBe(false);
  });

  it('matches routes whatever their parameter syntax, in URLs and OpenAPI paths, and by their tail', () => {
    expect(normalizeRoute('/users/:id/')).toBe('/users/{}');
    expect(normalizeRoute('/users/<int:id>')).toBe('/users/{}');
    expect(where('/v1/users/:userId', 'http-route')).toEqual(['guide.mdx:6', 'api/openapi.yaml:2']);
    expect(where('/users/{id}', 'http-route')).toEqual(['guide.mdx:6', 'api/openapi.yaml:2']);
    expect(where('/v1/users/42', 'http-route')).toEqual(['guide.mdx:6']);
  });

  it('matches messages by text, ignoring case', () => {
    expect(where('no project linked to this directory', 'message')).toEqual(['guide.mdx:8']);
    expect(where('no project linked to another place', 'message')).toEqual([]);
  });
});
