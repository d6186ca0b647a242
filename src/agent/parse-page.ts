import { compile } from '@mdx-js/mdx';
import { LineCounter, parseDocument } from 'yaml';
import { codeLines } from './code-lines.js';

export interface PageLink {
  url: string;
  line: number;
}

export interface ParsedPage {
  /** Why the page does not parse, if it does not. */
  error?: string;
  links: PageLink[];
  /** Module specifiers of ESM `import` statements (MDX only), e.g. `/snippets/note.mdx`. */
  imports: PageLink[];
}

export interface ParseOptions {
  /**
   * The site's build takes `## Heading {#custom-id}` (Mintlify, Docusaurus): the `{#…}` is not an MDX
   * expression there, so it is blanked out before compiling.
   */
  headingIds?: boolean;
}

/** A trailing `{#custom-id}` on an ATX heading, as Mintlify and Docusaurus accept it (and MkDocs' attr_list, `{ #id .class }`). */
export const HEADING_ID = /^(\s*#{1,6}\s.*?)\s*\{\s*#([^}\s]+)[^}]*\}\s*$/;

/**
 * Check leading YAML frontmatter with a real YAML parser (the build does, and an unclosed quote or a
 * stray line fails it), then blank it out keeping line numbers: the MDX compiler does not know it, and
 * braces or `<` inside it would be misread as MDX syntax.
 */
function splitFrontmatter(text: string): { body: string; error?: string } {
  if (!/^---\r?\n/.test(text)) return { body: text };
  const lines = text.split('\n');
  const end = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (end < 0) return { body: text, error: 'the frontmatter opened by --- on line 1 is never closed' };
  const lineCounter = new LineCounter();
  const document = parseDocument(lines.slice(1, end).join('\n'), { lineCounter, prettyErrors: false });
  const [first] = document.errors;
  if (first) {
    // Frontmatter starts on the page's line 2.
    const line = lineCounter.linePos(first.pos[0]).line + 1;
    return { body: text, error: `the frontmatter is not valid YAML (line ${line}): ${first.message.split('\n')[0]}` };
  }
  return { body: lines.map((line, i) => (i <= end ? '' : line)).join('\n') };
}

function blankHeadingIds(body: string, format: 'md' | 'mdx'): string {
  const lines = body.split('\n');
  const code = codeLines(body, format);
  return lines
    .map((line, i) => {
      const match = code[i] ? null : HEADING_ID.exec(line);
      return match ? match[1].padEnd(line.length) : line;
    })
    .join('\n');
}

type Node = {
  type: string;
  url?: unknown;
  value?: unknown;
  name?: unknown;
  attributes?: Node[];
  children?: Node[];
  position?: { start: { line: number } };
};

const IMPORT_SOURCE = /\bimport\s+(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/g;

function collect(node: Node, page: ParsedPage): void {
  const line = node.position?.start.line ?? 0;
  if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && typeof node.url === 'string')
    page.links.push({ url: node.url, line });
  if (node.type === 'html' && typeof node.value === 'string') {
    for (const match of node.value.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/gi))
      page.links.push({ url: match[1], line });
  }
  if (node.type === 'mdxjsEsm' && typeof node.value === 'string') {
    for (const match of node.value.matchAll(IMPORT_SOURCE)) {
      page.imports.push({ url: match[1], line: line + (node.value.slice(0, match.index).match(/\n/g)?.length ?? 0) });
    }
  }
  for (const attribute of node.attributes ?? []) {
    if ((attribute.name === 'href' || attribute.name === 'src') && typeof attribute.value === 'string')
      page.links.push({ url: attribute.value, line });
  }
  for (const child of node.children ?? []) collect(child, page);
}

/**
 * Parse a Markdown (`md`) or MDX (`mdx`) page with the MDX compiler and list the links and imports it
 * contains. A code fence left open at the end is not an error: CommonMark closes it at the end of the
 * document, and the docs platforms build such pages.
 */
export async function parsePage(text: string, format: 'md' | 'mdx', options: ParseOptions = {}): Promise<ParsedPage> {
  const { body, error: frontmatterError } = splitFrontmatter(text);
  if (frontmatterError) return { error: frontmatterError, links: [], imports: [] };
  let tree: Node | undefined;
  try {
    await compile(options.headingIds ? blankHeadingIds(body, format) : body, {
      format,
      remarkPlugins: [() => (root: unknown) => void (tree = root as Node)],
    });
  } catch (error) {
    // The compiler gives the line either as a field or only inside the reason, as "(3:1-3:17)".
    const raw = (error as { reason?: string }).reason ?? (error as Error).message;
    const line = (error as { line?: number }).line ?? Number(/\((\d+):\d+(?:-\d+:\d+)?\)/.exec(raw)?.[1] ?? 0);
    const reason = raw.replace(/\s*\(\d+:\d+(?:-\d+:\d+)?\)/, '');
    return { error: `${line ? `line ${line}: ` : ''}${reason}`, links: [], imports: [] };
  }
  const page: ParsedPage = { links: [], imports: [] };
  if (tree) collect(tree, page);
  return page;
}
