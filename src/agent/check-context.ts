import { readWorkspaceText, type DocsLayout } from './detect-docs-framework.js';
import { importCandidates } from './link-candidates.js';
import type { PageAnchors } from './page-anchors.js';
import { readPageAnchors } from './read-page-anchors.js';
import type { RedirectRules } from './redirect-rules.js';
import { resolveWorkspacePath } from './resolve-workspace-path.js';
import type { SiteRules } from './site-rules.js';

/** Where a site path leads when no file matches it directly: a redirect or a route the framework generates. */
export interface SiteRoutes {
  /** The page file served at `sitePath`; `true` when something other than a readable page answers it (a redirect). */
  resolve(sitePath: string): Promise<string | true | undefined>;
  /** The file the edits removed that used to be served at `sitePath`. */
  removedAt(sitePath: string): string | undefined;
}

/** What every edit check shares: the workspace, cached disk look-ups, and what the edits removed. */
export interface CheckContext {
  workspaceDir: string;
  layout: DocsLayout;
  site: SiteRules;
  /** Changed paths with their content before the agent's first change (`null`: did not exist). */
  originals: ReadonlyMap<string, string | null>;
  /** Files that existed before the edits and no longer do. */
  removed: Set<string>;
  /** Anchor keys each changed page had before the edits and no longer has. */
  lostAnchors: Map<string, Set<string>>;
  redirects: RedirectRules;
  routes: SiteRoutes;
  exists(relative: string): Promise<boolean>;
  /** The first of `candidates` that exists. */
  firstExisting(candidates: readonly string[]): Promise<string | undefined>;
  read(relative: string): Promise<string | undefined>;
  /** The text before the edits: the original for changed files, the current text for the rest. */
  readBefore(relative: string): Promise<string | undefined>;
  /** The page's anchors, those of the snippets it includes with them. */
  anchorsOf(relative: string): Promise<PageAnchors | undefined>;
  /** The file an `import` specifier in `fromFile` names, if it exists. */
  resolveImport(fromFile: string, specifier: string): Promise<string | undefined>;
}

export function createCheckContext(params: {
  workspaceDir: string;
  layout: DocsLayout;
  site: SiteRules;
  originals: ReadonlyMap<string, string | null>;
}): CheckContext {
  const { workspaceDir, originals } = params;
  const existing = new Map<string, Promise<boolean>>();
  const texts = new Map<string, Promise<string | undefined>>();
  const anchors = new Map<string, Promise<PageAnchors | undefined>>();
  const context: CheckContext = {
    ...params,
    removed: new Set(),
    lostAnchors: new Map(),
    redirects: { list: [], matches: () => false },
    routes: { resolve: async () => undefined, removedAt: () => undefined },
    exists: (relative) => {
      if (!existing.has(relative))
        existing.set(
          relative,
          resolveWorkspacePath(workspaceDir, relative).then(
            (p) => p.exists,
            () => false,
          ),
        );
      return existing.get(relative)!;
    },
    firstExisting: async (candidates) => {
      const found = await Promise.all(candidates.map(context.exists));
      return candidates[found.indexOf(true)];
    },
    read: (relative) => {
      if (!texts.has(relative)) texts.set(relative, readWorkspaceText(workspaceDir, relative));
      return texts.get(relative)!;
    },
    readBefore: async (relative) =>
      originals.has(relative) ? (originals.get(relative) ?? undefined) : context.read(relative),
    anchorsOf: (relative) => {
      if (!anchors.has(relative))
        anchors.set(
          relative,
          readPageAnchors({
            file: relative,
            format: params.site.format,
            read: context.read,
            resolveImport: context.resolveImport,
          }),
        );
      return anchors.get(relative)!;
    },
    resolveImport: async (fromFile, specifier) => {
      const candidates = importCandidates({ fromFile, specifier, layout: params.layout });
      return candidates && context.firstExisting(candidates);
    },
  };
  return context;
}
