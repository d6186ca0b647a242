import { parseDocument } from 'yaml';
import type { CheckContext } from './check-context.js';
import { navigationCandidates } from './link-candidates.js';
import { mkdocsNavigationPages } from './navigation-pages.js';

function yamlError(text: string): string | undefined {
  return parseDocument(text, { logLevel: 'silent' }).errors[0]?.message.split('\n')[0];
}

/**
 * mkdocs.yml that is no longer YAML, and `nav` entries without a page: new ones, and old ones whose page
 * the agent removed. (MkDocs warns about these; in `strict` mode the build fails on them.)
 */
export async function checkMkdocsNavigation(context: CheckContext): Promise<string[]> {
  const { layout, originals, removed } = context;
  if (!layout.configPath) return [];
  const text = (await context.read(layout.configPath)) ?? '';
  const error = originals.has(layout.configPath) ? yamlError(text) : undefined;
  if (error && !yamlError((await context.readBefore(layout.configPath)) ?? ''))
    return [`${layout.configPath} is no longer valid YAML: ${error}`];
  const now = mkdocsNavigationPages(text);
  const earlier = new Set(mkdocsNavigationPages((await context.readBefore(layout.configPath)) ?? ''));
  const configChanged = originals.has(layout.configPath);
  const problems: string[] = [];
  for (const page of now) {
    const candidates = navigationCandidates(page, layout);
    if ((!configChanged || earlier.has(page)) && !candidates.some((c) => removed.has(c))) continue;
    if ((await context.firstExisting(candidates)) !== undefined) continue;
    problems.push(
      `${layout.configPath}: the navigation entry "${page}" has no page (expected ${candidates.join(' or ')}).`,
    );
  }
  return problems;
}
