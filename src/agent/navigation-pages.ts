import { parseDocument } from 'yaml';
import { refTarget, type JsonFiles } from './json-refs.js';

/**
 * Page references in a docs site's navigation, read from the config. Pure: the caller reads the files.
 * Mintlify (`docs.json`, `mint.json`) nests pages under `pages` arrays at any depth (tabs, anchors,
 * groups, versions, languages), names a group's landing page in `root`, and may pull parts in from other
 * files with `$ref`; MkDocs lists `*.md` files under `nav:`.
 */
export interface NavigationEntry {
  kind: 'page' | 'openapi';
  /** A page path without extension (Mintlify), or an OpenAPI spec's path. */
  value: string;
  /** The config file that names it (the main config, or a file reached through `$ref`). */
  file: string;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:|^\/\//i;
/** Pages entries such as "GET /users" or "openapi.json POST /users" name generated API pages, not files. */
const OPERATION = /^(?:\S+\s+)?(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|WEBHOOK)\s+\S/i;

function openapiSources(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(openapiSources);
  const source = (value as { source?: unknown } | null)?.source;
  return typeof source === 'string' ? [source] : [];
}

export function mintlifyNavigationEntries(files: JsonFiles, rootFile: string): NavigationEntry[] {
  const entries: NavigationEntry[] = [];
  const seen = new Set<string>();
  const visit = (value: unknown, inPages: boolean, file: string, depth: number): void => {
    if (depth > 32) return;
    if (typeof value === 'string') {
      if (inPages && !EXTERNAL.test(value) && !OPERATION.test(value)) entries.push({ kind: 'page', value, file });
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, inPages, file, depth);
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string') {
          const target = refTarget(file, child);
          // A file referenced twice is read once: its entries are the same.
          if (!seen.has(`${target}\n${inPages}`)) visit(files.get(target)?.value, inPages, target, depth + 1);
          seen.add(`${target}\n${inPages}`);
        } else if (key === 'pages') visit(child, true, file, depth);
        else if (key === 'root' && typeof child === 'string') visit(child, true, file, depth);
        else if (key === 'openapi') {
          for (const source of openapiSources(child))
            if (!EXTERNAL.test(source)) entries.push({ kind: 'openapi', value: source, file });
        } else if (typeof child === 'object') visit(child, false, file, depth);
      }
    }
  };
  const config = files.get(rootFile)?.value as
    | { navigation?: unknown; openapi?: unknown; api?: { openapi?: unknown } }
    | undefined;
  visit(config?.navigation, false, rootFile, 0);
  // mint.json's top-level `openapi` and docs.json's `api.openapi` name specs too.
  for (const source of [...openapiSources(config?.openapi), ...openapiSources(config?.api?.openapi)]) {
    if (!EXTERNAL.test(source)) entries.push({ kind: 'openapi', value: source, file: rootFile });
  }
  return entries;
}

/** The page entries of a single Mintlify config value (no `$ref` files). */
export function mintlifyNavigationPages(config: unknown): string[] {
  return mintlifyNavigationEntries(new Map([['', { value: config }]]), '')
    .filter((entry) => entry.kind === 'page')
    .map((entry) => entry.value);
}

function mkdocsNavValues(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(mkdocsNavValues);
  if (value && typeof value === 'object') return Object.values(value).flatMap(mkdocsNavValues);
  return [];
}

/** `*.md` entries below `nav:` in mkdocs.yml, read as YAML (Python tags such as `!ENV` read as plain values). */
export function mkdocsNavigationPages(yamlText: string): string[] {
  const document = parseDocument(yamlText, { logLevel: 'silent' });
  if (document.errors.length > 0) return [];
  const nav = (document.toJS({ maxAliasCount: 100 }) as { nav?: unknown } | null)?.nav;
  return mkdocsNavValues(nav).filter((entry) => /\.(md|markdown)$/i.test(entry) && !EXTERNAL.test(entry));
}

/** `docs_dir:` from mkdocs.yml; MkDocs defaults to `docs`. */
export function mkdocsDocsDir(yamlText: string): string {
  const match = /^docs_dir\s*:\s*['"]?([^'"\n#]+?)['"]?\s*(#.*)?$/m.exec(yamlText);
  return (match?.[1] ?? 'docs').replace(/\/+$/, '');
}

/**
 * Directories where Mintlify generates pages from an OpenAPI spec (no file behind them): the folder of
 * the pages listed beside an `openapi` entry or an operation ("GET /users"), an `openapi.directory`, or
 * Mintlify's default `api-reference`. Links into them cannot be checked against files. Takes the config
 * with `$ref`s resolved.
 */
export function mintlifyGeneratedPageDirs(config: unknown): string[] {
  const dirs = new Set<string>();
  const pageDirs = (value: unknown): string[] => {
    if (typeof value === 'string')
      return !OPERATION.test(value) && value.includes('/') ? [value.replace(/^\/+/, '').replace(/\/[^/]*$/, '')] : [];
    if (Array.isArray(value)) return value.flatMap(pageDirs);
    if (value && typeof value === 'object') return pageDirs((value as { pages?: unknown }).pages);
    return [];
  };
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    const node = value as { openapi?: unknown; pages?: unknown };
    const operations =
      Array.isArray(node.pages) && node.pages.some((page) => typeof page === 'string' && OPERATION.test(page));
    if (node.openapi !== undefined || operations) {
      const directory = (node.openapi as { directory?: unknown } | null)?.directory;
      const found = [
        ...(typeof directory === 'string' ? [directory.replace(/^\/+|\/+$/g, '')] : []),
        ...pageDirs(node.pages),
      ];
      for (const dir of found.length > 0 ? found : ['api-reference']) dirs.add(dir);
    }
    Object.values(value).forEach(visit);
  };
  visit((config as { navigation?: unknown } | null)?.navigation);
  return [...dirs];
}
