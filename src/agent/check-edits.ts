import { detectDocsFramework, readWorkspaceText, type DocsLayout } from './detect-docs-framework.js';
import { linkCandidates, navigationCandidates } from './link-candidates.js';
import { mintlifyNavigationPages, mkdocsNavigationPages } from './navigation-pages.js';
import { parsePage, type PageLink } from './parse-page.js';
import { resolveWorkspacePath } from './resolve-workspace-path.js';
import { walkWorkspace } from './tools/walk-workspace.js';

export interface CheckEditsParams {
  workspaceDir: string;
  /** Changed paths with their content before the agent's first change (`null`: did not exist). */
  originals: ReadonlyMap<string, string | null>;
}

const MAX_PROBLEMS = 25;
const PAGE = /\.(mdx?|markdown)$/i;
/** Docusaurus 3 (by default) and Mintlify compile .md pages with the MDX parser too, so they must be valid MDX. */
const MDX_EVERYWHERE = new Set(['docusaurus', 'mintlify']);

/** Links found by a quick scan, for the many pages that are read only to look for links to removed files. */
function scanLinks(text: string): PageLink[] {
  const links: PageLink[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^)]*)?\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)|\b(?:href|src)\s*=\s*["']([^"']+)["']/g)) {
      links.push({ url: m[1] ?? m[2] ?? m[3], line: i + 1 });
    }
  });
  return links;
}

function navigationOf(layout: DocsLayout, text: string): { pages: string[]; error?: string } {
  if (layout.framework === 'mkdocs') return { pages: mkdocsNavigationPages(text) };
  try {
    return { pages: mintlifyNavigationPages(JSON.parse(text)) };
  } catch (error) {
    return { pages: [], error: (error as Error).message };
  }
}

/**
 * Problems the agent's edits introduced: changed pages that no longer parse, links in changed pages
 * and navigation entries that point at missing files, and links elsewhere to files the agent deleted
 * or moved. Problems the repository already had before the edits are not reported.
 */
export async function checkEdits(params: CheckEditsParams): Promise<string[]> {
  const { workspaceDir, originals } = params;
  const layout = await detectDocsFramework(workspaceDir);
  const known = new Map<string, boolean>();
  const exists = async (relative: string): Promise<boolean> => {
    if (!known.has(relative)) known.set(relative, await resolveWorkspacePath(workspaceDir, relative).then((p) => p.exists, () => false));
    return known.get(relative)!;
  };
  const anyExists = async (candidates: string[]) => (await Promise.all(candidates.map(exists))).some(Boolean);

  const removed = new Set<string>();
  for (const [file, before] of originals) if (before !== null && !(await exists(file))) removed.add(file);
  const touchesRemoved = (candidates: string[]) => candidates.some((c) => removed.has(c));
  const problems: string[] = [];

  for (const [file, before] of originals) {
    if (!PAGE.test(file) || removed.has(file)) continue;
    const text = await readWorkspaceText(workspaceDir, file);
    if (text === undefined) continue;
    const format = /\.mdx$/i.test(file) || MDX_EVERYWHERE.has(layout.framework) ? 'mdx' : 'md';
    const parsed = await parsePage(text, format);
    if (parsed.error) {
      const wasBroken = before !== null && (await parsePage(before, format)).error !== undefined;
      if (!wasBroken) problems.push(`${file} no longer parses as ${format === 'mdx' ? 'MDX' : 'Markdown'}: ${parsed.error}`);
      continue;
    }
    const earlierUrls = new Set(before === null ? [] : scanLinks(before).map((l) => l.url));
    for (const link of parsed.links) {
      const candidates = linkCandidates({ fromFile: file, url: link.url, layout });
      // The pure test first: a link the page already had, to nothing the agent removed, needs no disk look-up.
      if (!candidates || (earlierUrls.has(link.url) && !touchesRemoved(candidates))) continue;
      if (await anyExists(candidates)) continue;
      problems.push(`${file}:${link.line}: the link "${link.url}" points at a file that does not exist.`);
    }
  }

  if (layout.configPath && (layout.framework === 'mintlify' || layout.framework === 'mkdocs')) {
    const text = (await readWorkspaceText(workspaceDir, layout.configPath)) ?? '';
    const now = navigationOf(layout, text);
    const before = originals.has(layout.configPath) ? originals.get(layout.configPath) : text;
    const earlier = new Set(before ? navigationOf(layout, before).pages : []);
    if (now.error && originals.has(layout.configPath)) problems.push(`${layout.configPath} is no longer valid JSON: ${now.error}`);
    for (const page of now.pages) {
      const candidates = navigationCandidates(page, layout);
      // Entries the navigation already had, to nothing removed, are skipped without touching the disk: a large
      // site has thousands, and only new or affected entries can be the agent's doing.
      if (earlier.has(page) && !touchesRemoved(candidates)) continue;
      if (await anyExists(candidates)) continue;
      problems.push(`${layout.configPath}: the navigation entry "${page}" has no page (expected ${candidates.join(' or ')}).`);
    }
  }

  if (removed.size > 0) {
    for await (const entry of walkWorkspace(workspaceDir, '', { maxEntries: 20_000 })) {
      if (entry.isDirectory || !PAGE.test(entry.relative) || originals.has(entry.relative)) continue;
      const text = await readWorkspaceText(workspaceDir, entry.relative);
      for (const link of text === undefined ? [] : scanLinks(text)) {
        const candidates = linkCandidates({ fromFile: entry.relative, url: link.url, layout });
        if (!candidates || !touchesRemoved(candidates) || (await anyExists(candidates))) continue;
        problems.push(`${entry.relative}:${link.line}: the link "${link.url}" points at ${candidates.find((c) => removed.has(c))}, which you deleted or moved.`);
      }
    }
  }

  if (problems.length <= MAX_PROBLEMS) return problems;
  return [...problems.slice(0, MAX_PROBLEMS), `… and ${problems.length - MAX_PROBLEMS} more problems like these.`];
}
