import path from 'node:path';
import { parseDocument } from 'yaml';
import type { DocsLayout } from './detect-docs-framework.js';
import { docusaurusSetting } from './docusaurus-docs.js';
import { ignoreMatcher } from './ignore-matcher.js';

/** What a framework's build looks at and what fails it, so the checks hold the agent to the same. */
export interface SiteRules {
  /** Whether the build compiles this file; other files are neither checked nor searched for links. */
  builds(file: string): boolean;
  /** How the build parses a page. */
  format(file: string): 'md' | 'mdx';
  /** The build accepts `## Heading {#id}`. */
  headingIds: boolean;
  /** Whether the build fails on a link (in `fromFile`) to a file that does not exist. */
  checksLink(fromFile: string, url: string): boolean;
  /** Whether the build fails on a link to an anchor the target page does not have. */
  anchors: boolean;
}

/** Mintlify skips these even without a `.mintignore`. */
const MINTLIFY_IGNORED = [
  '.git/',
  '.github/',
  '.claude/',
  '.agents/',
  '.idea/',
  '.vscode/',
  '.cursor/',
  'node_modules/',
  'README.md',
  'LICENSE.md',
  'CHANGELOG.md',
  'CONTRIBUTING.md',
];

/** MkDocs' default `exclude_docs`. */
const MKDOCS_EXCLUDED = ['.*', '/templates/'];

const within = (dir: string, file: string) => dir === '' || file.startsWith(`${dir}/`);
const relativeTo = (dir: string, file: string) => (dir === '' ? file : file.slice(dir.length + 1));
const isExternal = (url: string) => /^([a-z][a-z0-9+.-]*:|\/\/)/i.test(url.trim());

function yamlConfig(text: string): Record<string, unknown> {
  // MkDocs configs carry Python tags (!!python/name:…, !ENV); unknown tags read as plain values.
  const value = parseDocument(text, { logLevel: 'silent' }).toJS({ maxAliasCount: 100 }) as unknown;
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function mkdocsSetting(config: Record<string, unknown>, ...keys: string[]): unknown {
  let value: unknown = config;
  for (const key of keys)
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

export async function loadSiteRules(
  layout: DocsLayout,
  read: (file: string) => Promise<string | undefined>,
): Promise<SiteRules> {
  const configText = layout.configPath ? ((await read(layout.configPath)) ?? '') : '';
  const root = layout.docsRoot;
  const mdxByExtension = (file: string): 'md' | 'mdx' => (/\.mdx$/i.test(file) ? 'mdx' : 'md');
  const allLinks = () => true;

  if (layout.framework === 'mintlify') {
    const ignored = ignoreMatcher([
      ...MINTLIFY_IGNORED,
      ...((await read(path.posix.join(root, '.mintignore'))) ?? '').split('\n'),
    ]);
    return {
      builds: (file) => within(root, file) && !ignored(relativeTo(root, file)),
      // Mintlify compiles .md pages with the MDX parser too.
      format: () => 'mdx',
      headingIds: true,
      // A snippet's relative links resolve against whichever page imports it.
      checksLink: (fromFile, url) =>
        !(within(path.posix.join(root, 'snippets'), fromFile) && !url.startsWith('/') && !url.startsWith('#')),
      anchors: true,
    };
  }
  if (layout.framework === 'docusaurus') {
    const site = path.posix.dirname(layout.configPath ?? 'docusaurus.config.js').replace(/^\.$/, '');
    const builtDirs = [root, ...['blog', 'src', 'versioned_docs', 'i18n'].map((dir) => path.posix.join(site, dir))];
    const detect = /\bformat\s*:\s*['"]detect['"]/.test(configText);
    return {
      builds: (file) => builtDirs.some((dir) => within(dir, file)) && !file.split('/').includes('node_modules'),
      // Docusaurus 3 compiles every page as MDX unless `markdown.format` is 'detect'.
      format: (file) => (detect ? mdxByExtension(file) : 'mdx'),
      headingIds: true,
      // onBrokenLinks defaults to 'throw' and onBrokenAnchors to 'warn': only 'throw' fails the build.
      checksLink: () => (docusaurusSetting(configText, 'onBrokenLinks') ?? 'throw') === 'throw',
      anchors: docusaurusSetting(configText, 'onBrokenAnchors') === 'throw',
    };
  }
  if (layout.framework === 'mkdocs') {
    const config = yamlConfig(configText);
    const excluded = mkdocsSetting(config, 'exclude_docs');
    const ignored = ignoreMatcher([...MKDOCS_EXCLUDED, ...(typeof excluded === 'string' ? excluded.split('\n') : [])]);
    const validation = (key: string) =>
      mkdocsSetting(config, 'validation', key) ?? mkdocsSetting(config, 'validation', 'links', key);
    const absoluteToDocs = validation('absolute_links') === 'relative_to_docs';
    return {
      builds: (file) => within(root, file) && !ignored(relativeTo(root, file)),
      format: mdxByExtension,
      headingIds: false,
      // MkDocs validates relative links to files; absolute links only with `absolute_links: relative_to_docs`,
      // and extensionless links ("unrecognized") not at all.
      checksLink: (_fromFile, url) => {
        const target = url.trim().replace(/[?#].*$/, '');
        if (url.trim().startsWith('#')) return true;
        if (isExternal(url) || !/\.[a-z0-9]+$/i.test(target)) return false;
        return !target.startsWith('/') || absoluteToDocs;
      },
      anchors: validation('anchors') === 'warn',
    };
  }
  return { builds: () => true, format: mdxByExtension, headingIds: false, checksLink: allLinks, anchors: false };
}
