import path from 'node:path';
import { parseDocument } from 'yaml';

/**
 * How Docusaurus names and serves a doc, from its path inside the docs directory and its frontmatter.
 * Pure. Number prefixes ("01-intro.md", "2. Guides/") are dropped from ids and URLs, as Docusaurus does.
 */
export interface DocIdentity {
  id: string;
  /** URL paths the doc is served at (lowercase, no trailing slash). More than one when unsure. */
  routes: string[];
}

const NUMBER_PREFIX = /^\d+\s*[-_.]+\s*(?=[^-_.\s])/;
/** Date-like prefixes ("2024-01-01-") are part of the name, not a sort number. */
const DATE_LIKE = /^\d{2,4}[-_.]\d{2}[-_.]\d{2}/;

/** `key: 'value'` in docusaurus.config.js/ts, read as text: the config is code and is never run. */
export function docusaurusSetting(configText: string, key: string): string | undefined {
  return new RegExp(`\\b${key}\\s*:\\s*['"\`]([^'"\`]*)['"\`]`).exec(configText)?.[1];
}

export function stripNumberPrefix(segment: string): string {
  return DATE_LIKE.test(segment) ? segment : segment.replace(NUMBER_PREFIX, '');
}

export function frontmatterOf(text: string): Record<string, unknown> {
  const match = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\s*(?:\r?\n|$)/.exec(text);
  if (!match) return {};
  const value = parseDocument(match[1], { logLevel: 'silent' }).toJS() as unknown;
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

const clean = (route: string) => `/${route.split('/').filter(Boolean).join('/')}`.toLowerCase();

export function docusaurusDoc(params: {
  pathInDocs: string;
  frontmatter: Record<string, unknown>;
  routeBasePath: string;
}): DocIdentity {
  const { pathInDocs, frontmatter, routeBasePath } = params;
  const segments = pathInDocs.replace(/\.(mdx?|markdown)$/i, '').split('/');
  const fileName = stripNumberPrefix(segments.pop() ?? '');
  const dirs = segments.map(stripNumberPrefix);
  const ownId = typeof frontmatter.id === 'string' ? frontmatter.id : undefined;
  const slug = typeof frontmatter.slug === 'string' ? frontmatter.slug : undefined;
  const id = [...dirs, ownId ?? fileName].join('/');
  let routes: string[];
  if (slug !== undefined) routes = [slug.startsWith('/') ? slug : [...dirs, slug].join('/')];
  else {
    // index.md, README.md and a file named like its folder are the folder's own page.
    const names = [...new Set([ownId ?? fileName, fileName])];
    routes = names.map((name) =>
      /^(index|readme)$/i.test(name) || name.toLowerCase() === dirs.at(-1)?.toLowerCase()
        ? dirs.join('/')
        : [...dirs, name].join('/'),
    );
  }
  return { id, routes: routes.map((route) => clean(path.posix.join(routeBasePath, route))) };
}
