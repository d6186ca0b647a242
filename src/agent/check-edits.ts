import { checkChangedPages, PAGE } from './check-changed-pages.js';
import { createCheckContext, type CheckContext } from './check-context.js';
import { checkDocusaurusSidebars } from './check-docusaurus-sidebars.js';
import { checkMintlifyConfig, type MintlifyConfigVersions } from './check-mintlify-config.js';
import { checkMkdocsNavigation } from './check-mkdocs-navigation.js';
import { checkReferencesElsewhere } from './check-references-elsewhere.js';
import { checkRedirectFiles } from './check-redirect-files.js';
import { detectDocsFramework, readWorkspaceText } from './detect-docs-framework.js';
import { loadDocusaurusSite, type DocusaurusSite } from './docusaurus-site.js';
import { loadJsonWithRefs, resolveJsonRefs } from './json-refs.js';
import { mintlifyGeneratedPageDirs } from './navigation-pages.js';
import { readPageAnchors } from './read-page-anchors.js';
import { redirectRules } from './redirect-rules.js';
import { loadSiteRules } from './site-rules.js';

export interface CheckEditsParams {
  workspaceDir: string;
  /** Changed paths with their content before the agent's first change (`null`: did not exist). */
  originals: ReadonlyMap<string, string | null>;
}

const MAX_PROBLEMS = 25;

async function findRemoved(context: CheckContext): Promise<void> {
  for (const [file, before] of context.originals)
    if (before !== null && !(await context.exists(file))) context.removed.add(file);
}

/** Anchors changed pages had and lost: links elsewhere to them broke even though those pages did not change. */
async function findLostAnchors(context: CheckContext): Promise<void> {
  if (!context.site.anchors) return;
  for (const [file, before] of context.originals) {
    if (before === null || context.removed.has(file) || !PAGE.test(file) || !context.site.builds(file)) continue;
    const now = await context.anchorsOf(file);
    if (!now?.complete) continue;
    // Before, too, with the snippets the page included then.
    const earlier = await readPageAnchors({
      file,
      format: context.site.format,
      read: context.readBefore,
      resolveImport: context.resolveImport,
    });
    const lost = [...(earlier?.keys ?? [])].filter((key) => !now.keys.has(key));
    if (lost.length > 0) context.lostAnchors.set(file, new Set(lost));
  }
}

/** The Mintlify config with its `$ref` files, now and before the edits (the same object when none changed). */
async function loadMintlifyConfig(context: CheckContext, configPath: string): Promise<MintlifyConfigVersions> {
  const now = await loadJsonWithRefs(configPath, context.read);
  const changed = [...now.keys()].some((file) => context.originals.has(file));
  const before = changed ? await loadJsonWithRefs(configPath, context.readBefore) : now;
  return { configPath, now, before };
}

/**
 * Problems the agent's edits introduced, at the level the site's own build enforces them: changed
 * pages that no longer parse; links, anchors and imports in changed pages that lead nowhere; config
 * values the build rejects; navigation, sidebar, OpenAPI and redirect entries without a target; and
 * links elsewhere to files or headings the agent removed. Files the site never builds are left alone,
 * and problems the repository already had before the edits are not reported.
 */
export async function checkEdits(params: CheckEditsParams): Promise<string[]> {
  const { workspaceDir, originals } = params;
  const layout = await detectDocsFramework(workspaceDir);
  const site = await loadSiteRules(layout, (file) => readWorkspaceText(workspaceDir, file));
  const context = createCheckContext({ workspaceDir, layout, originals, site });
  await findRemoved(context);

  let mintlify: MintlifyConfigVersions | undefined;
  if (layout.framework === 'mintlify' && layout.configPath) {
    mintlify = await loadMintlifyConfig(context, layout.configPath);
    const config = resolveJsonRefs(mintlify.now, layout.configPath);
    const redirects = (context.redirects = redirectRules(config));
    const generated = mintlifyGeneratedPageDirs(config).map((dir) => `/${dir}/`.toLowerCase());
    context.routes = {
      // A redirect's source works without a page behind it, and pages generated from an OpenAPI spec have no file.
      resolve: async (sitePath) =>
        redirects.matches(sitePath) || generated.some((dir) => sitePath.toLowerCase().startsWith(dir)) || undefined,
      removedAt: () => undefined,
    };
  }
  let docusaurus: DocusaurusSite | undefined;
  if (layout.framework === 'docusaurus') {
    docusaurus = await loadDocusaurusSite(context);
    context.routes = docusaurus.routes;
  }
  await findLostAnchors(context);

  const problems = await checkChangedPages(context);
  if (mintlify) problems.push(...(await checkMintlifyConfig(context, mintlify)));
  if (docusaurus) problems.push(...(await checkDocusaurusSidebars(context, docusaurus)));
  if (layout.framework === 'mkdocs') problems.push(...(await checkMkdocsNavigation(context)));
  problems.push(...(await checkRedirectFiles(context)));
  if (context.removed.size > 0 || context.lostAnchors.size > 0)
    problems.push(...(await checkReferencesElsewhere(context)));

  if (problems.length <= MAX_PROBLEMS) return problems;
  return [...problems.slice(0, MAX_PROBLEMS), `… and ${problems.length - MAX_PROBLEMS} more problems like these.`];
}
