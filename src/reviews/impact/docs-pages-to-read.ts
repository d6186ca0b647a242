import { DOCS_CONFIG_CANDIDATES, docsLayoutOf, type DocsLayout } from '../../agent/detect-docs-framework.js';
import type { JsonFiles } from '../../agent/json-refs.js';
import { mintlifyNavigationEntries } from '../../agent/navigation-pages.js';

/**
 * Which files of the docs repository a review reads. Pure: the caller lists the tree (at the default branch) and
 * reads the config files that exist among DOCS_CONFIG_FILES. The framework is detected as the agent detects it;
 * every `.md`/`.mdx` page under its docs root is read (a page left out of the navigation can still be linked and
 * still go stale), plus the OpenAPI files the config names and any `openapi.*`/`swagger.*` file in the repository.
 */
export const DOCS_CONFIG_FILES: readonly string[] = DOCS_CONFIG_CANDIDATES.map((c) => c.file);

const PAGE = /\.(md|mdx)$/i;
const SPEC = /(^|\/)(openapi|swagger)[^/]*\.(json|ya?ml)$/i;
const IGNORED = /(^|\/)(node_modules|\.git|\.github|\.scribe|build|dist|\.docusaurus|site)\//;

export function docsPagesToRead(params: {
  paths: readonly string[];
  /** Text of the config files present, by path. */
  configs: ReadonlyMap<string, string>;
  /** A Mintlify config and the files its `$ref`s reach (`loadJsonWithRefs`), when the caller read them. */
  mintlifyFiles?: JsonFiles;
}): { layout: DocsLayout; pages: string[] } {
  const candidate = DOCS_CONFIG_CANDIDATES.find((c) => params.configs.has(c.file));
  const layout: DocsLayout = candidate
    ? docsLayoutOf(candidate, params.configs.get(candidate.file)!)
    : { framework: 'markdown', docsRoot: '' };
  const root = layout.docsRoot ? `${layout.docsRoot}/` : '';
  const present = new Set(params.paths);
  const pages = new Set(params.paths.filter((p) => p.startsWith(root) && PAGE.test(p) && !IGNORED.test(p)));
  for (const p of params.paths) if (SPEC.test(p) && !IGNORED.test(p)) pages.add(p);
  if (layout.framework === 'mintlify' && layout.configPath) {
    let files = params.mintlifyFiles;
    if (!files) {
      try {
        files = new Map([[layout.configPath, { value: JSON.parse(params.configs.get(layout.configPath)!) }]]);
      } catch {
        files = new Map();
      }
    }
    for (const entry of mintlifyNavigationEntries(files, layout.configPath)) {
      if (entry.kind !== 'openapi') continue;
      const spec = `${root}${entry.value.replace(/^\/+/, '')}`;
      if (present.has(spec)) pages.add(spec);
    }
  }
  return { layout, pages: [...pages].sort() };
}
