import path from 'node:path';
import type { CheckContext, SiteRoutes } from './check-context.js';
import { docusaurusDoc, docusaurusSetting, frontmatterOf, type DocIdentity } from './docusaurus-docs.js';
import pLimit from 'p-limit';
import { walkWorkspace } from './tools/walk-workspace.js';

export interface DocusaurusSite {
  siteDir: string;
  routes: SiteRoutes;
  /** Every doc id in the docs directory now (read on first use: it means reading every doc). */
  docIds(): Promise<Set<string>>;
  /** Ids of the docs the edits removed, with their files. */
  removedIds: Map<string, string>;
}

const DOC = /\.(mdx?|markdown)$/i;
const PAGE_SOURCE = /\.(mdx?|jsx?|tsx?)$/i;

/** Docs and routes of a Docusaurus site, for links written as URLs (`/docs/guides/x`) and sidebar doc ids. */
export async function loadDocusaurusSite(context: CheckContext): Promise<DocusaurusSite> {
  const { layout, originals, removed, workspaceDir } = context;
  const configText = (layout.configPath && (await context.read(layout.configPath))) || '';
  const siteDir = path.posix.dirname(layout.configPath ?? '.').replace(/^\.$/, '');
  const routeBasePath = docusaurusSetting(configText, 'routeBasePath') ?? 'docs';
  const baseUrl = (docusaurusSetting(configText, 'baseUrl') ?? '/').replace(/\/+$/, '');
  const docsRoot = layout.docsRoot;
  const identity = (file: string, text: string): DocIdentity =>
    docusaurusDoc({ pathInDocs: file.slice(docsRoot.length + 1), frontmatter: frontmatterOf(text), routeBasePath });
  const isDoc = (file: string) =>
    file.startsWith(`${docsRoot}/`) && DOC.test(file) && !path.posix.basename(file).startsWith('_');

  const removedIds = new Map<string, string>();
  const removedRoutes = new Map<string, string>();
  for (const file of removed) {
    const before = originals.get(file);
    if (!before || !isDoc(file)) continue;
    const doc = identity(file, before);
    removedIds.set(doc.id, file);
    for (const route of doc.routes) removedRoutes.set(route, file);
  }

  let index: Promise<{ ids: Set<string>; routes: Map<string, string> }> | undefined;
  const pagesDir = `${path.posix.join(siteDir, 'src/pages')}/`;
  const build = async () => {
    const ids = new Set<string>();
    const routes = new Map<string, string>();
    const docs: string[] = [];
    for await (const entry of walkWorkspace(workspaceDir, '', { maxEntries: 50_000 })) {
      const file = entry.relative;
      if (entry.isDirectory) continue;
      if (isDoc(file)) docs.push(file);
      else if (PAGE_SOURCE.test(file) && file.startsWith(pagesDir) && !path.posix.basename(file).startsWith('_')) {
        const route = file
          .slice(pagesDir.length)
          .replace(PAGE_SOURCE, '')
          .replace(/(^|\/)index$/i, '');
        routes.set(`/${route.split('/').filter(Boolean).join('/')}`.toLowerCase(), file);
      }
    }
    // Ids and slugs can come from frontmatter, so every doc is read (several at a time).
    const identities = await pLimit(32).map(docs, async (file) => identity(file, (await context.read(file)) ?? ''));
    identities.forEach((doc, i) => {
      ids.add(doc.id);
      for (const route of doc.routes) routes.set(route, docs[i]);
    });
    return { ids, routes };
  };
  const lazyIndex = () => (index ??= build());

  const normalize = (sitePath: string) => {
    let result = sitePath.replace(/[?#].*$/, '');
    if (baseUrl && result.startsWith(`${baseUrl}/`)) result = result.slice(baseUrl.length);
    return `/${result.split('/').filter(Boolean).join('/')}`.toLowerCase();
  };
  const withBase = (route: string) => `/${[routeBasePath, route].join('/').split('/').filter(Boolean).join('/')}`;
  return {
    siteDir,
    removedIds,
    docIds: async () => (await lazyIndex()).ids,
    routes: {
      resolve: async (sitePath) => {
        const route = normalize(sitePath);
        const { routes } = await lazyIndex();
        const found = routes.get(route) ?? routes.get(withBase(route));
        if (found) return found;
        // Routes Docusaurus generates without a file behind them are not second-guessed: blog posts (dated,
        // configurable URLs), tag pages, search, other versions and locales.
        const [first = '', second = ''] = route.split('/').filter(Boolean);
        const docsSegment = routeBasePath.replace(/^\/+|\/+$/g, '').toLowerCase();
        if (['blog', 'search', 'tags'].includes(first) || (first === docsSegment && second === 'tags')) return true;
        if (first && (await context.exists(path.posix.join(siteDir, 'i18n', first)))) return true;
        if (await context.exists(path.posix.join(siteDir, 'versions.json'))) return true;
        return undefined;
      },
      removedAt: (sitePath) =>
        removedRoutes.get(normalize(sitePath)) ?? removedRoutes.get(withBase(normalize(sitePath))),
    },
  };
}
