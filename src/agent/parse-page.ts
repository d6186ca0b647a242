import { compile } from '@mdx-js/mdx';

export interface PageLink {
  url: string;
  line: number;
}

export interface ParsedPage {
  /** Why the page does not parse, if it does not. */
  error?: string;
  links: PageLink[];
}

/**
 * Blank out leading YAML frontmatter (keeping line numbers): the MDX compiler does not know it, and
 * braces or `<` inside it would be misread as MDX syntax.
 */
function splitFrontmatter(text: string): { body: string; error?: string } {
  if (!/^---\r?\n/.test(text)) return { body: text };
  const lines = text.split('\n');
  const end = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (end < 0) return { body: text, error: 'the frontmatter opened by --- on line 1 is never closed' };
  const bad = lines.slice(1, end).findIndex((line) => line.trim() !== '' && !/^\s|^#|^-\s|^-$/.test(line) && !/^[^:]+:(\s|$)/.test(line));
  if (bad >= 0) return { body: text, error: `frontmatter line ${bad + 2} is not "key: value" YAML` };
  return { body: lines.map((line, i) => (i <= end ? '' : line)).join('\n') };
}

function unclosedFence(body: string): number | undefined {
  let open: { marker: string; line: number } | undefined;
  body.split('\n').forEach((line, i) => {
    const fence = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (!fence) return;
    if (!open) open = { marker: fence, line: i + 1 };
    else if (fence[0] === open.marker[0] && fence.length >= open.marker.length && line.trim() === fence) open = undefined;
  });
  return open?.line;
}

type Node = { type: string; url?: unknown; value?: unknown; name?: unknown; attributes?: Node[]; children?: Node[]; position?: { start: { line: number } } };

function collectLinks(node: Node, links: PageLink[]): void {
  const line = node.position?.start.line ?? 0;
  if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && typeof node.url === 'string') links.push({ url: node.url, line });
  if (node.type === 'html' && typeof node.value === 'string') {
    for (const match of node.value.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/gi)) links.push({ url: match[1], line });
  }
  for (const attribute of node.attributes ?? []) {
    if ((attribute.name === 'href' || attribute.name === 'src') && typeof attribute.value === 'string') links.push({ url: attribute.value, line });
  }
  for (const child of node.children ?? []) collectLinks(child, links);
}

/** Parse a Markdown (`md`) or MDX (`mdx`) page with the MDX compiler and list the links it contains. */
export async function parsePage(text: string, format: 'md' | 'mdx'): Promise<ParsedPage> {
  const { body, error: frontmatterError } = splitFrontmatter(text);
  if (frontmatterError) return { error: frontmatterError, links: [] };
  const fenceLine = unclosedFence(body);
  if (fenceLine !== undefined) return { error: `the code block opened on line ${fenceLine} is never closed`, links: [] };
  let tree: Node | undefined;
  try {
    await compile(body, { format, remarkPlugins: [() => (root: unknown) => void (tree = root as Node)] });
  } catch (error) {
    // The compiler gives the line either as a field or only inside the reason, as "(3:1-3:17)".
    const raw = (error as { reason?: string }).reason ?? (error as Error).message;
    const line = (error as { line?: number }).line ?? Number(/\((\d+):\d+(?:-\d+:\d+)?\)/.exec(raw)?.[1] ?? 0);
    const reason = raw.replace(/\s*\(\d+:\d+(?:-\d+:\d+)?\)/, '');
    return { error: `${line ? `line ${line}: ` : ''}${reason}`, links: [] };
  }
  const links: PageLink[] = [];
  if (tree) collectLinks(tree, links);
  return { links };
}
