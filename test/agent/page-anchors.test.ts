import { anchorKey, pageAnchors } from '../../src/agent/page-anchors.js';

describe('pageAnchors', () => {
  it('compares anchors loosely, as the platforms slug headings differently', () => {
    expect(anchorKey("What's in `acme.json`?")).toBe('whatsinacmejson');
    expect(anchorKey('what’s-in-acme-json')).toBe('whatsinacmejson');
    expect(anchorKey('step-1:-issue-a%20token')).toBe('step1issueatoken');
    expect(anchorKey('Configuración')).toBe('configuración');
  });

  it('reads ATX and setext headings, {#custom-id}s, ids, titled components and repeated headings, but not code blocks', () => {
    const page = [
      '---',
      'title: Setup',
      '---',
      '## Install the [CLI](/cli) <Badge>new</Badge>',
      '### 1. Configure',
      '## Domains {#custom-domain}',
      'Overview',
      '========',
      '<div id="legacy-anchor" />',
      '<Accordion title="Use a subdomain">x</Accordion>',
      '## Example',
      '## Example',
      '### The `<Card>` component',
      '<h3>Raw HTML heading</h3>',
      '```md',
      '## Not a heading',
      '```',
    ].join('\n');
    const { keys, complete } = pageAnchors(page);
    expect(complete).toBe(true);
    for (const anchor of ['install-the-cli', 'install-the-cli-new', '1-configure', 'configure', 'custom-domain', 'domains', 'overview', 'legacy-anchor', 'use-a-subdomain', 'example', 'example-1', 'example-2', 'the-card-component', 'raw-html-heading']) {
      expect([anchor, keys.has(anchorKey(anchor))]).toEqual([anchor, true]);
    }
    expect(keys.has(anchorKey('not-a-heading'))).toBe(false);
    expect(keys.has(anchorKey('setup'))).toBe(false);
    // A heading read several ways is still one heading: no "-1" twin.
    expect(keys.has(anchorKey('install-the-cli-1'))).toBe(false);
  });

  it('gives up on pages whose anchors it cannot know: API pages, imported snippets, computed headings, self-anchoring components', () => {
    expect(pageAnchors('---\nopenapi: GET /users\n---\n').complete).toBe(false);
    expect(pageAnchors("import Steps from '/snippets/steps.mdx';\n\n<Steps />\n").complete).toBe(false);
    expect(pageAnchors('## Version {props.version}\n').complete).toBe(false);
    expect(pageAnchors('<ParamField path="id" type="string">The id</ParamField>\n').complete).toBe(false);
    expect(pageAnchors('## Plain\n\nText with {braces} in prose.\n').complete).toBe(true);
    expect(pageAnchors("import Tip from '@site/src/components/Tip';\n\n## Plain\n").complete).toBe(true);
  });
});
