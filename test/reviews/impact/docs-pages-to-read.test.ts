import { DOCS_CONFIG_FILES, docsPagesToRead } from '../../../src/reviews/impact/docs-pages-to-read.js';

describe('docsPagesToRead', () => {
  it('reads every page of a Mintlify site and the OpenAPI file its config names', () => {
    const paths = [
      'docs.json',
      'index.mdx',
      'cli/deploy.mdx',
      'guides/setup.md',
      'specs/api.yaml',
      'specs/unused.yaml',
      'node_modules/pkg/README.md',
      'logo.png',
    ];
    const config = JSON.stringify({
      navigation: { tabs: [{ tab: 'API', openapi: 'specs/api.yaml', pages: ['index'] }] },
    });
    const { layout, pages } = docsPagesToRead({ paths, configs: new Map([['docs.json', config]]) });
    expect(layout.framework).toBe('mintlify');
    expect(pages).toEqual(['cli/deploy.mdx', 'guides/setup.md', 'index.mdx', 'specs/api.yaml']);
  });

  it('keeps to an MkDocs docs_dir and a Docusaurus docs folder, and picks up an openapi file anywhere', () => {
    const mkdocs = docsPagesToRead({
      paths: ['mkdocs.yml', 'README.md', 'content/index.md', 'content/cli.md', 'openapi.json'],
      configs: new Map([['mkdocs.yml', 'site_name: x\ndocs_dir: content\n']]),
    });
    expect(mkdocs.pages).toEqual(['content/cli.md', 'content/index.md', 'openapi.json']);
    const docusaurus = docsPagesToRead({
      paths: ['docusaurus.config.ts', 'docs/intro.md', 'blog/2020.md', 'src/pages/index.mdx'],
      configs: new Map([['docusaurus.config.ts', 'export default {}']]),
    });
    expect(docusaurus.layout.framework).toBe('docusaurus');
    expect(docusaurus.pages).toEqual(['docs/intro.md']);
  });

  it('reads every Markdown page when no framework is detected, and names the config files to look for', () => {
    const { layout, pages } = docsPagesToRead({ paths: ['README.md', 'guide/a.mdx', 'x.ts'], configs: new Map() });
    expect(layout.framework).toBe('markdown');
    expect(pages).toEqual(['README.md', 'guide/a.mdx']);
    expect(DOCS_CONFIG_FILES).toContain('docs.json');
    expect(DOCS_CONFIG_FILES).toContain('mkdocs.yml');
  });
});
