import type { DocsSite } from './docs-site.js';

/** The site's llms.txt (llmstxt.org): a title, then each navigation group as a list of links to the pages' Markdown. */
export function llmsTxt(params: { site: DocsSite; title: string; base: string }): string {
  const { site, title, base } = params;
  let text = `# ${title}\n\n> Documentation pages as Markdown, from commit ${site.sha}.\n`;
  for (const group of site.navigation) {
    text += `\n## ${group.group || 'Pages'}\n\n`;
    for (const page of group.pages)
      text += `- [${page.title}](${base}${page.path === '/' ? '/index' : page.path}.md)\n`;
  }
  return text;
}
