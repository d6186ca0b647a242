import { codeLines } from './code-lines.js';
import type { PageLink } from './parse-page.js';

const LINK =
  /\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^)]*)?\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)|\b(?:href|src)\s*=\s*["']([^"']+)["']/g;
const IMPORT = /^\s*import\s+(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/;

/**
 * Links and imports found by a line scan, skipping the lines the Markdown parser reads as code, for the many pages
 * that are read only to look for links to what the edits removed, and for the text of pages before the edits.
 */
export function scanLinks(text: string, format: 'md' | 'mdx'): { links: PageLink[]; imports: PageLink[] } {
  const links: PageLink[] = [];
  const imports: PageLink[] = [];
  const lines = text.split('\n');
  const code = codeLines(text, format);
  lines.forEach((line, i) => {
    if (code[i]) return;
    const specifier = IMPORT.exec(line)?.[1];
    if (specifier) imports.push({ url: specifier, line: i + 1 });
    for (const m of line.matchAll(LINK)) links.push({ url: m[1] ?? m[2] ?? m[3], line: i + 1 });
  });
  return { links, imports };
}
