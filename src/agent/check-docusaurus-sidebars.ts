import path from 'node:path';
import type { CheckContext } from './check-context.js';
import type { DocusaurusSite } from './docusaurus-site.js';
import { sidebarDocIds } from './sidebar-doc-ids.js';

const SIDEBAR_FILES = ['sidebars.ts', 'sidebars.js', 'sidebars.mjs', 'sidebars.cjs', 'sidebars.json'];

/**
 * Doc ids in the sidebars file that name no doc: new ones, and ones whose doc the agent removed. The
 * build fails on both ("These sidebar document ids do not exist").
 */
export async function checkDocusaurusSidebars(context: CheckContext, site: DocusaurusSite): Promise<string[]> {
  let sidebars: string | undefined;
  for (const name of SIDEBAR_FILES) {
    const file = path.posix.join(site.siteDir, name);
    if (await context.exists(file)) {
      sidebars = file;
      break;
    }
  }
  if (!sidebars) return [];
  const changed = context.originals.has(sidebars);
  const earlier = new Set(changed ? sidebarDocIds((await context.readBefore(sidebars)) ?? '') : []);
  const problems: string[] = [];
  for (const id of sidebarDocIds((await context.read(sidebars)) ?? '')) {
    const removedFile = site.removedIds.get(id);
    if ((!changed || earlier.has(id)) && !removedFile) continue;
    // Most ids are the doc's path: look for that file before reading every doc for its frontmatter id.
    const direct = [`${id}.md`, `${id}.mdx`].map((name) => path.posix.join(context.layout.docsRoot, name));
    if ((await context.firstExisting(direct)) !== undefined || (await site.docIds()).has(id)) continue;
    problems.push(
      removedFile
        ? `${sidebars}: the sidebar names the doc "${id}", which was ${removedFile}: you deleted or moved it.`
        : `${sidebars}: the sidebar names the doc "${id}", which does not exist.`,
    );
  }
  return problems;
}
