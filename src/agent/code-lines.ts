import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { mdxExpressionFromMarkdown } from 'mdast-util-mdx-expression';
import { mdxJsxFromMarkdown } from 'mdast-util-mdx-jsx';
import { mdxExpression } from 'micromark-extension-mdx-expression';
import { mdxJsx } from 'micromark-extension-mdx-jsx';
import { mdxMd } from 'micromark-extension-mdx-md';

/** MDX's Markdown: JSX and `{expressions}` (braces balanced, not read as JavaScript), no indented code, no HTML. */
const MDX = {
  extensions: [mdxJsx(), mdxExpression(), mdxMd()],
  mdastExtensions: [mdxJsxFromMarkdown(), mdxExpressionFromMarkdown()],
};
/** What is left of MDX when its JSX or braces do not parse: still no indented code and no HTML. */
const MDX_LOOSE = { extensions: [mdxMd()] };

const FENCE = /```|~~~/;
const INDENTED = /^[ \t>*+\-.)\d]*?(?: {4}|\t)/m;

/**
 * For each line of `text` (split on "\n"), whether it is part of a code block — fenced (its fence lines included) or,
 * in Markdown, indented — as the parser reads it: CommonMark for `md`; for `mdx`, MDX's variant, where indentation
 * makes no code block and fences inside JSX components count. A fence left open runs to the end of its container.
 */
export function codeLines(text: string, format: 'md' | 'mdx'): boolean[] {
  const inCode = new Array<boolean>(text.split('\n').length).fill(false);
  // parsing costs milliseconds a page and every page is read when something is removed: a page with no fence, and
  // in Markdown no line indented four columns (after any container marks), has no code block to find
  if (!FENCE.test(text) && (format === 'mdx' || !INDENTED.test(text))) return inCode;
  const mark = (node: Nodes) => {
    if (node.type === 'code' && node.position) {
      const { start, end } = node.position;
      // a fence left open ends where the next line (of another block, or none) begins: that line is not code
      const last = end.column === 1 && end.line > start.line ? end.line - 1 : end.line;
      for (let line = start.line; line <= last; line++) inCode[line - 1] = true;
      return;
    }
    if ('children' in node) for (const child of node.children) mark(child);
  };
  mark(parse(text, format));
  return inCode;
}

function parse(text: string, format: 'md' | 'mdx') {
  if (format === 'md') return fromMarkdown(text);
  try {
    return fromMarkdown(text, MDX);
  } catch {
    // a page whose JSX does not parse still has its fences; the MDX check (parse-page.ts) reports the JSX
    return fromMarkdown(text, MDX_LOOSE);
  }
}
