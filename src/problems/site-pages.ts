import type { DocsPage } from '../reviews/impact/find-impact.js';
import type { SitePage } from './redirect-candidates.js';

const PAGE = /\.(md|mdx)$/i;
/** Where the frameworks keep their pages, when every page sits under one (Docusaurus, MkDocs). */
const ROOTS = ['docs/', 'website/docs/', 'src/pages/', 'content/'];

/**
 * The docs repository's pages as the site serves them: the file without its extension, `index`/`README` read as their
 * folder, below the one docs folder every page shares; the title from front matter or the first heading. Pure.
 */
export function sitePages(pages: readonly DocsPage[]): SitePage[] {
  // one list per commit's pages (they are cached per commit): redirect candidates are remembered per list
  let listed = listedPages.get(pages);
  if (!listed) listedPages.set(pages, (listed = listPages(pages)));
  return listed;
}

const listedPages = new WeakMap<readonly DocsPage[], SitePage[]>();

function listPages(pages: readonly DocsPage[]): SitePage[] {
  const files = pages.filter((p) => PAGE.test(p.path));
  const root = ROOTS.find((r) => files.length > 0 && files.every((p) => p.path.startsWith(r))) ?? '';
  return files.map((page) => {
    const route = page.path
      .slice(root.length)
      .replace(PAGE, '')
      .replace(/(^|\/)(index|readme)$/i, '');
    return { path: `/${route}`, file: page.path, title: titleOf(page.text) };
  });
}

function titleOf(text: string): string | null {
  const front = text.match(/^---\r?\n([\s\S]*?)\r?\n---/);
  const title = front?.[1].match(/^title:\s*["']?(.+?)["']?\s*$/m)?.[1] ?? text.match(/^#\s+(.+)$/m)?.[1];
  return title?.trim() || null;
}
