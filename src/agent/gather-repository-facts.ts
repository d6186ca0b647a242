import { detectDocsFramework, readWorkspaceText, type DocsLayout } from './detect-docs-framework.js';
import { mintlifyNavigationPages, mkdocsNavigationPages } from './navigation-pages.js';
import { walkWorkspace } from './tools/walk-workspace.js';

/** What the system prompt says about a repository. Gathered here; formatted by buildSystemPrompt. */
export interface RepositoryFacts extends DocsLayout {
  /** The config file's text, shortened. */
  configExcerpt?: string;
  navigationPages: string[];
  /** Files and directories two levels deep (shortened). */
  tree: string[];
  pageCounts: { md: number; mdx: number };
  /** Frontmatter keys seen in sampled pages, most common first. */
  frontmatterKeys: { key: string; count: number }[];
  sampledPages: number;
  /** The repository's own instruction files (.scribe/instructions.md, AGENTS.md, .mintlify/AGENTS.md), shortened. */
  instructionFiles: { path: string; text: string; truncated: boolean }[];
}

// .mintlify/AGENTS.md is where the hosted service Scribe is compatible with reads a repository's agent instructions.
const INSTRUCTION_FILES = ['.scribe/instructions.md', 'AGENTS.md', '.mintlify/AGENTS.md'];
const MAX_CONFIG_CHARS = 6_000;
const MAX_INSTRUCTION_CHARS = 16_000;
const MAX_TREE_ENTRIES = 200;
const FRONTMATTER_SAMPLE = 40;

function frontmatterKeysOf(text: string): string[] {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\s*(\r?\n|$)/.exec(text);
  if (!match) return [];
  return match[1].split('\n').flatMap((line) => /^([A-Za-z_][\w-]*)\s*:/.exec(line)?.[1] ?? []);
}

function navigationOf(layout: DocsLayout, configText: string): string[] {
  if (layout.framework === 'mkdocs') return mkdocsNavigationPages(configText);
  if (layout.framework !== 'mintlify') return [];
  try {
    return mintlifyNavigationPages(JSON.parse(configText));
  } catch {
    return [];
  }
}

export async function gatherRepositoryFacts(workspaceDir: string): Promise<RepositoryFacts> {
  const layout = await detectDocsFramework(workspaceDir);
  const configText = layout.configPath ? ((await readWorkspaceText(workspaceDir, layout.configPath)) ?? '') : '';

  const tree: string[] = [];
  for await (const entry of walkWorkspace(workspaceDir, '', {
    maxDepth: 2,
    skipHidden: true,
    maxEntries: MAX_TREE_ENTRIES,
  })) {
    tree.push(entry.isDirectory ? `${entry.relative}/` : entry.relative);
  }

  const pageCounts = { md: 0, mdx: 0 };
  const keyCounts = new Map<string, number>();
  let sampledPages = 0;
  for await (const entry of walkWorkspace(workspaceDir, '', { maxEntries: 20_000 })) {
    const ext = /\.(mdx?|markdown)$/i.exec(entry.relative)?.[1].toLowerCase();
    // Instruction files are Markdown too, but not pages of the site.
    if (entry.isDirectory || !ext || INSTRUCTION_FILES.includes(entry.relative)) continue;
    pageCounts[ext === 'mdx' ? 'mdx' : 'md']++;
    if (sampledPages >= FRONTMATTER_SAMPLE) continue;
    const text = await readWorkspaceText(workspaceDir, entry.relative);
    if (text === undefined) continue;
    sampledPages++;
    for (const key of frontmatterKeysOf(text)) keyCounts.set(key, (keyCounts.get(key) ?? 0) + 1);
  }

  const instructionFiles: RepositoryFacts['instructionFiles'] = [];
  for (const file of INSTRUCTION_FILES) {
    const text = await readWorkspaceText(workspaceDir, file);
    if (text === undefined || text.trim() === '') continue;
    instructionFiles.push({
      path: file,
      text: text.slice(0, MAX_INSTRUCTION_CHARS),
      truncated: text.length > MAX_INSTRUCTION_CHARS,
    });
  }

  return {
    ...layout,
    configExcerpt: configText
      ? configText.slice(0, MAX_CONFIG_CHARS) + (configText.length > MAX_CONFIG_CHARS ? '\n… (truncated)' : '')
      : undefined,
    navigationPages: navigationOf(layout, configText),
    tree,
    pageCounts,
    frontmatterKeys: [...keyCounts]
      .map(([key, count]) => ({ key, count }))
      .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)),
    sampledPages,
    instructionFiles,
  };
}
