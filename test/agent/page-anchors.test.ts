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
    const { keys, complete } = pageAnchors(page, 'mdx');
    expect(complete).toBe(true);
    for (const anchor of [
      'install-the-cli',
      'install-the-cli-new',
      '1-configure',
      'configure',
      'custom-domain',
      'domains',
      'overview',
      'legacy-anchor',
      'use-a-subdomain',
      'example',
      'example-1',
      'example-2',
      'the-card-component',
      'raw-html-heading',
    ]) {
      expect([anchor, keys.has(anchorKey(anchor))]).toEqual([anchor, true]);
    }
    expect(keys.has(anchorKey('not-a-heading'))).toBe(false);
    expect(keys.has(anchorKey('setup'))).toBe(false);
    // A heading read several ways is still one heading: no "-1" twin.
    expect(keys.has(anchorKey('install-the-cli-1'))).toBe(false);
  });

  it('gives up only on pages whose anchors it cannot know: API pages, computed headings and ids', () => {
    expect(pageAnchors('---\nopenapi: GET /users\n---\n', 'mdx').complete).toBe(false);
    expect(pageAnchors('## Version {props.version}\n', 'mdx').complete).toBe(false);
    expect(pageAnchors('<Accordion title={name}>x</Accordion>\n', 'mdx').complete).toBe(false);
    expect(pageAnchors('<ParamField path={field} type="string">x</ParamField>\n', 'mdx').complete).toBe(false);
    expect(pageAnchors('<ParamField {...field}>x</ParamField>\n', 'mdx').complete).toBe(false);
    expect(pageAnchors('## Plain\n\nText with {braces} in prose.\n', 'mdx').complete).toBe(true);
    expect(pageAnchors("import Tip from '@site/src/components/Tip';\n\n## Plain\n", 'mdx').complete).toBe(true);
    // Braces in inline code and MDX comments compute nothing.
    const literal = pageAnchors('## The `{ ... }` placeholder {/* note */}\n', 'mdx');
    expect(literal.complete).toBe(true);
    expect(literal.keys.has(anchorKey('the-placeholder'))).toBe(true);
  });

  it('gives parameter and response fields their #param- anchors, on one line or several, and counts repeats', () => {
    const page = [
      '<ParamField body="userId" type="string">The user</ParamField>',
      '<ParamField query="page">One</ParamField>',
      '<ParamField query="page">Two</ParamField>',
      '<Expandable title="properties">',
      '  <ResponseField',
      '    name="displayName"',
      '    type="string"',
      '  >',
      '    Shown to others.',
      '  </ResponseField>',
      '</Expandable>',
      'The `<ParamField query="example">` tag in inline code is text.',
      '```mdx',
      '<ResponseField name="inCode" />',
      '```',
    ].join('\n');
    const { keys, complete } = pageAnchors(page, 'mdx');
    expect(complete).toBe(true);
    for (const anchor of ['param-user-id', 'param-page', 'param-page-1', 'param-display-name'])
      expect([anchor, keys.has(anchorKey(anchor))]).toEqual([anchor, true]);
    for (const anchor of ['param-example', 'param-in-code', 'param-nope'])
      expect([anchor, keys.has(anchorKey(anchor))]).toEqual([anchor, false]);
  });

  it('lists the Markdown snippets a page includes for the caller to read, not component imports', () => {
    const page = [
      'import Steps from "/snippets/steps.mdx";',
      'import {',
      '  version,',
      "} from './vars.md';",
      "import Chart from '/snippets/chart.jsx';",
      '<Snippet file="legacy.mdx" />',
      '```mdx',
      "import Example from '/snippets/example.mdx';",
      '```',
    ].join('\n');
    const anchors = pageAnchors(page, 'mdx');
    expect(anchors.snippets).toEqual(['/snippets/steps.mdx', './vars.md', '/snippets/legacy.mdx']);
    expect(anchors.complete).toBe(true);
  });
});
