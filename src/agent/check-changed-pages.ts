import type { CheckContext } from './check-context.js';
import { importProblem, linkProblem } from './check-link.js';
import { parsePage } from './parse-page.js';
import { scanLinks } from './scan-links.js';

export const PAGE = /\.(mdx?|markdown)$/i;

/**
 * Problems in the pages the agent changed or created: pages that no longer parse, and links, anchors
 * and imports that lead nowhere. Files the site does not build are left alone.
 */
export async function checkChangedPages(context: CheckContext): Promise<string[]> {
  const { site, originals, removed } = context;
  const problems: string[] = [];
  for (const [file, before] of originals) {
    if (!PAGE.test(file) || removed.has(file) || !site.builds(file)) continue;
    const text = await context.read(file);
    if (text === undefined) continue;
    const format = site.format(file);
    const options = { headingIds: site.headingIds };
    const parsed = await parsePage(text, format, options);
    if (parsed.error) {
      const wasBroken = before !== null && (await parsePage(before, format, options)).error !== undefined;
      if (!wasBroken)
        problems.push(`${file} no longer parses as ${format === 'mdx' ? 'MDX' : 'Markdown'}: ${parsed.error}`);
      continue;
    }
    const earlier = before === null ? { links: [], imports: [] } : scanLinks(before, format);
    const earlierLinks = new Set(earlier.links.map((l) => l.url));
    const earlierImports = new Set(earlier.imports.map((l) => l.url));
    for (const link of parsed.links) {
      const problem = await linkProblem(context, file, link, !earlierLinks.has(link.url));
      if (problem) problems.push(problem);
    }
    for (const specifier of parsed.imports) {
      const problem = await importProblem(context, file, specifier, !earlierImports.has(specifier.url));
      if (problem) problems.push(problem);
    }
  }
  return problems;
}
