import { DocsSearch } from './docs-search.js';

/** A page of the docs site: its site path (`/guide/intro`), its file, title and Markdown. */
export interface SitePage {
  slug: string;
  file: string;
  title: string;
  markdown: string;
}

export interface NavigationGroup {
  group: string;
  pages: { path: string; title: string }[];
}

/** A docs repository at one commit, as served over MCP, llms.txt and `.md` pages: read once, indexed once. */
export interface DocsSite {
  sha: string;
  pages: Map<string, SitePage>;
  navigation: NavigationGroup[];
  search: DocsSearch;
}

const PAGE_FILE = /\.mdx?$/i;
const CONFIGS = ['docs.json', 'mint.json'];

/** The site path of a page file: extension dropped, `index` read as its folder. */
export function slugOf(file: string): string {
  const path = `/${file.replace(PAGE_FILE, '')}`.replace(/\/index$/i, '') || '/';
  return path;
}

/** Builds the site from the repository's files (Markdown pages, and the Mintlify `docs.json` navigation). */
export function buildDocsSite(params: { sha: string; files: { path: string; text: string }[] }): DocsSite {
  const pages = new Map<string, SitePage>();
  for (const file of params.files) {
    if (!PAGE_FILE.test(file.path)) continue;
    const slug = slugOf(file.path);
    if (!pages.has(slug))
      pages.set(slug, { slug, file: file.path, title: titleOf(file.text, slug), markdown: file.text });
  }
  const config = params.files.find((f) => CONFIGS.includes(f.path));
  const navigation = (config && navigationOf(config.text, pages)) ?? [
    { group: 'Pages', pages: [...pages.values()].sort(byPath).map(entry) },
  ];
  const sorted = [...pages.values()].sort(byPath);
  const search = new DocsSearch(sorted.map((p) => ({ slug: p.slug, title: p.title, text: bodyOf(p.markdown) })));
  return { sha: params.sha, pages, navigation, search };
}

const byPath = (a: SitePage, b: SitePage) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
const entry = (p: SitePage) => ({ path: p.slug, title: p.title });

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/** The frontmatter's `title`, else the first `#` heading, else the path's last segment. */
function titleOf(markdown: string, slug: string): string {
  const front = FRONTMATTER.exec(markdown)?.[1];
  const title = front && /^title:\s*["']?(.+?)["']?\s*$/m.exec(front)?.[1];
  if (title) return title;
  const heading = /^#\s+(.+)$/m.exec(markdown.replace(FRONTMATTER, ''))?.[1];
  return heading?.trim() || slug.split('/').pop() || 'Home';
}

function bodyOf(markdown: string): string {
  return markdown.replace(FRONTMATTER, '');
}

/** The groups of a Mintlify navigation (any nesting of tabs, anchors, groups), pages that exist only. */
function navigationOf(text: string, pages: Map<string, SitePage>): NavigationGroup[] | undefined {
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch {
    return undefined;
  }
  const root = (config as { navigation?: unknown })?.navigation;
  if (root === undefined) return undefined;
  const groups: NavigationGroup[] = [];
  const visit = (node: unknown, group: NavigationGroup | undefined, depth: number) => {
    if (depth > 32) return;
    if (typeof node === 'string') {
      const page = pages.get(slugOf(node));
      if (page && group) group.pages.push(entry(page));
      return;
    }
    if (Array.isArray(node)) {
      for (const child of node) visit(child, group, depth + 1);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    let inner = group;
    if (typeof record.group === 'string') {
      inner = { group: record.group, pages: [] };
      groups.push(inner);
    }
    for (const [key, value] of Object.entries(record))
      if (key !== 'group' && typeof value === 'object') visit(value, inner ?? topLevel(), depth + 1);
  };
  let top: NavigationGroup | undefined;
  const topLevel = () => {
    if (!top) groups.unshift((top = { group: '', pages: [] }));
    return top;
  };
  visit(root, undefined, 0);
  return groups.filter((g) => g.pages.length);
}
