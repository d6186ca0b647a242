import path from 'node:path';
import type { DocsLayout } from './detect-docs-framework.js';

/**
 * The repository files an internal link could mean, or `undefined` for links that are not checked
 * (external, anchors only, MDX expressions). Deliberately lenient: a link counts as broken only when
 * none of the usual readings (with or without extension, index pages, static folders) exists.
 */
export function linkCandidates(params: { fromFile: string; url: string; layout: DocsLayout }): string[] | undefined {
  const { fromFile, layout } = params;
  let url = params.url.trim();
  if (url === '' || url.startsWith('#') || url.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(url) || /[{}]/.test(url))
    return undefined;
  url = url.replace(/[?#].*$/, '');
  try {
    url = decodeURI(url);
  } catch {
    // keep it as written
  }
  if (url === '') return undefined;

  // Static folders sit at the repository root or beside the config (a Docusaurus site in website/).
  const configDir = layout.configPath ? path.posix.dirname(layout.configPath).replace(/^\.$/, '') : '';
  const statics = configDir ? [`${configDir}/static`, `${configDir}/public`] : [];
  const bases = url.startsWith('/')
    ? [
        ...new Set(
          [layout.docsRoot, '', 'public', 'static', layout.docsRoot && `${layout.docsRoot}/public`, ...statics].filter(
            (b) => b !== undefined,
          ),
        ),
      ]
    : [path.posix.dirname(fromFile)];
  const targets = bases.map((base) =>
    path.posix.normalize(path.posix.join(base || '.', url.replace(/^\/+/, ''))).replace(/\/+$/, ''),
  );

  const candidates: string[] = [];
  for (const target of targets) {
    if (target === '.' || target === '') {
      candidates.push('index.mdx', 'index.md', 'README.md');
      continue;
    }
    candidates.push(target);
    if (!/\.[a-z0-9]+$/i.test(target))
      candidates.push(
        `${target}.mdx`,
        `${target}.md`,
        `${target}/index.mdx`,
        `${target}/index.md`,
        `${target}/README.md`,
      );
  }
  return [...new Set(candidates)];
}

/** The files a navigation entry (Mintlify page id, MkDocs path) can mean. */
export function navigationCandidates(entry: string, layout: DocsLayout): string[] {
  const target = path.posix.normalize(path.posix.join(layout.docsRoot || '.', entry.replace(/^\/+/, '')));
  if (/\.(mdx?|markdown)$/i.test(target)) return [target];
  return [`${target}.mdx`, `${target}.md`];
}

/** The site path a link leads to (`/guides/setup`), as the browser resolves it from the page's URL. */
export function sitePathOf(params: { fromFile: string; url: string; layout: DocsLayout }): string {
  const { fromFile, layout } = params;
  const url = params.url.trim().replace(/[?#].*$/, '');
  if (url.startsWith('/')) return url;
  const page =
    layout.docsRoot && fromFile.startsWith(`${layout.docsRoot}/`)
      ? fromFile.slice(layout.docsRoot.length + 1)
      : fromFile;
  return path.posix.normalize(path.posix.join('/', path.posix.dirname(page), url));
}

const MODULE_EXTENSIONS = ['.mdx', '.md', '.jsx', '.js', '.tsx', '.ts'];

/**
 * The files an ESM import in a page can mean, or `undefined` for package imports. `/…` is relative to
 * the docs root (Mintlify's `/snippets/…`), `@site/…` to the Docusaurus site directory.
 */
export function importCandidates(params: {
  fromFile: string;
  specifier: string;
  layout: DocsLayout;
}): string[] | undefined {
  const { fromFile, specifier, layout } = params;
  let target: string;
  if (specifier.startsWith('@site/')) {
    const site = path.posix.dirname(layout.configPath ?? '.');
    target = path.posix.join(site, specifier.slice('@site/'.length));
  } else if (specifier.startsWith('/')) target = path.posix.join(layout.docsRoot || '.', specifier.replace(/^\/+/, ''));
  else if (specifier.startsWith('./') || specifier.startsWith('../'))
    target = path.posix.join(path.posix.dirname(fromFile), specifier);
  else return undefined;
  target = path.posix.normalize(target);
  if (/\.[a-z0-9]+$/i.test(target)) return [target];
  return [
    ...MODULE_EXTENSIONS.map((ext) => `${target}${ext}`),
    ...MODULE_EXTENSIONS.map((ext) => `${target}/index${ext}`),
  ];
}
