import { createRequire } from 'node:module';
import { codeLines } from '../../src/agent/code-lines.js';

interface Example {
  markdown: string;
  html: string;
  section: string;
  number: number;
}

/** The specification's examples as the commonmark-spec package (a development dependency) reads them from spec.txt. */
const { tests } = createRequire(import.meta.url)('commonmark-spec') as { tests: Example[] };
const FENCED = tests.filter((e) => e.section === 'Fenced code blocks');

const decodeEntities = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** The contents of the code blocks of an example's expected HTML, each as its lines. */
function htmlCodeBlocks(html: string): string[][] {
  return [...html.matchAll(/<pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)].map((m) => {
    const content = decodeEntities(m[1]);
    return content === '' ? [] : content.replace(/\n$/, '').split('\n');
  });
}

/** Runs of consecutive lines marked as code: [first, last], 0-based. */
function runs(marks: boolean[]): [number, number][] {
  const found: [number, number][] = [];
  marks.forEach((inCode, i) => {
    if (!inCode) return;
    const last = found.at(-1);
    if (last && last[1] === i - 1) last[1] = i;
    else found.push([i, i]);
  });
  return found;
}

describe('codeLines on the CommonMark specification', () => {
  it('has the fenced code block examples to check against', () => {
    expect(FENCED.length).toBeGreaterThanOrEqual(25);
  });

  it.each(FENCED.map((e) => [e.number, e] as const))(
    'example %i: the lines taken as code are the code blocks of the expected HTML',
    (_number, example) => {
      const lines = example.markdown.split('\n');
      const marks = codeLines(example.markdown, 'md');
      const expected = htmlCodeBlocks(example.html);
      const marked = lines.filter((_, i) => marks[i]);
      const content = expected.flat();
      // blocks that touch (a closing fence, then an opening one) make one run of code lines
      const found = runs(marks).length;
      expect(found).toBeLessThanOrEqual(expected.length);
      expect(found > 0).toBe(expected.length > 0);
      // what a block adds to its content is at most its opening and closing fence lines
      expect(marked.length - content.length).toBeGreaterThanOrEqual(0);
      expect(marked.length - content.length).toBeLessThanOrEqual(2 * expected.length);
      // and the content is those lines, in order, as they were written (less their indentation or container)
      let at = 0;
      for (const line of content) {
        while (at < marked.length && !marked[at].includes(line.trimStart())) at++;
        expect(at).toBeLessThan(marked.length);
        at++;
      }
      // nothing outside a block is code
      const outside = lines.filter((_, i) => !marks[i]).join('\n');
      for (const content of expected) for (const line of content) if (line.trim()) expect(outside).not.toBe(line);
    },
  );
});

describe('codeLines on pages', () => {
  it('takes inline code written with triple backticks for inline code, not for a fence that never closes', () => {
    // a backtick fence's info string cannot contain a backtick (CommonMark 4.5)
    const page = [
      '<Steps>',
      '  <Step title="Install the CLI">',
      '      ```npm i -g mintlify@latest```',
      '  </Step>',
      '</Steps>',
      '',
      '<Card title="Code blocks" href="/essentials/code">',
      '  Show code.',
      '</Card>',
    ].join('\n');
    expect(codeLines(page, 'mdx')).toEqual(new Array(9).fill(false));
    expect(codeLines(page, 'md').slice(5)).toEqual([false, false, false, false]);
  });

  it('follows MDX: fences inside components count, indentation alone makes no code block', () => {
    const page = [
      '<Tabs>',
      '  <Tab title="npm">',
      '    ```bash',
      '    npm i [not a link](/nowhere)',
      '    ```',
      '  </Tab>',
      '</Tabs>',
      '',
      '    indented prose in MDX',
    ].join('\n');
    expect(codeLines(page, 'mdx')).toEqual([false, false, true, true, true, false, false, false, false]);
    // in Markdown the first line opens an HTML block that runs to the blank line; the indented line is code
    expect(codeLines(page, 'md')).toEqual([false, false, false, false, false, false, false, false, true]);
  });

  it('closes an unclosed fence at the end of its container, not the page', () => {
    const page = ['- item', '  ```', '  code', '- next [link](/here)', '', '~~~', '```', 'still code'].join('\n');
    expect(codeLines(page, 'md')).toEqual([false, true, true, false, false, true, true, true]);
  });

  it('still finds fences on an MDX page whose JSX does not parse', () => {
    const page = ['<Card title="Broken"', '', '```js', 'const a = 1;', '```', 'after {'].join('\n');
    expect(codeLines(page, 'mdx')).toEqual([false, false, true, true, true, false]);
  });
});
