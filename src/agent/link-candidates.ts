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
  if (url === '' || url.startsWith('#') || url.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(url) || /[{}]/.test(url)) return undefined;
  url = url.replace(/[?#].*$/, '');
  try {
    url = decodeURI(url);
  } catch {
    // keep it as written
  }
  if (url === '') return undefined;

  const bases = url.startsWith('/')
    ? [...new Set([layout.docsRoot, '', 'public', 'static', layout.docsRoot && `${layout.docsRoot}/public`].filter((b) => b !== undefined))]
    : [path.posix.dirname(fromFile)];
  const targets = bases.map((base) => path.posix.normalize(path.posix.join(base || '.', url.replace(/^\/+/, ''))).replace(/\/+$/, ''));

  const candidates: string[] = [];
  for (const target of targets) {
    if (target === '.' || target === '') {
      candidates.push('index.mdx', 'index.md', 'README.md');
      continue;
    }
    candidates.push(target);
    if (!/\.[a-z0-9]+$/i.test(target)) candidates.push(`${target}.mdx`, `${target}.md`, `${target}/index.mdx`, `${target}/index.md`, `${target}/README.md`);
  }
  return [...new Set(candidates)];
}

/** The files a navigation entry (Mintlify page id, MkDocs path) can mean. */
export function navigationCandidates(entry: string, layout: DocsLayout): string[] {
  const target = path.posix.normalize(path.posix.join(layout.docsRoot || '.', entry.replace(/^\/+/, '')));
  if (/\.(mdx?|markdown)$/i.test(target)) return [target];
  return [`${target}.mdx`, `${target}.md`];
}
