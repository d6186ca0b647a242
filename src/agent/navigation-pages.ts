/**
 * Page references in a docs site's navigation, read from the config text. Pure: the caller reads the
 * file. Mintlify (`docs.json`, `mint.json`) nests pages under `pages` arrays at any depth (tabs,
 * anchors, groups, versions, languages); MkDocs lists `*.md` files under `nav:`.
 */
export function mintlifyNavigationPages(config: unknown): string[] {
  const pages: string[] = [];
  const visit = (value: unknown, inPages: boolean): void => {
    if (typeof value === 'string') {
      if (inPages && !/^[a-z][a-z0-9+.-]*:/i.test(value)) pages.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, inPages);
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'pages') visit(child, true);
        else if (typeof child === 'object') visit(child, false);
      }
    }
  };
  const navigation = (config as { navigation?: unknown } | null)?.navigation;
  visit(navigation, false);
  return pages;
}

/** `*.md` entries below `nav:` in mkdocs.yml (a light reading; MkDocs YAML rarely strays from this). */
export function mkdocsNavigationPages(yamlText: string): string[] {
  const lines = yamlText.split('\n');
  const start = lines.findIndex((line) => /^nav\s*:/.test(line));
  if (start < 0) return [];
  const pages: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line) && !line.startsWith('#')) break;
    const match = /(?:^\s*-\s*|:\s*)['"]?([^'"\s:][^'"\s]*\.md)['"]?\s*$/.exec(line);
    if (match && !/^[a-z]+:\/\//i.test(match[1])) pages.push(match[1]);
  }
  return pages;
}

/** `docs_dir:` from mkdocs.yml; MkDocs defaults to `docs`. */
export function mkdocsDocsDir(yamlText: string): string {
  const match = /^docs_dir\s*:\s*['"]?([^'"\n#]+?)['"]?\s*(#.*)?$/m.exec(yamlText);
  return (match?.[1] ?? 'docs').replace(/\/+$/, '');
}
