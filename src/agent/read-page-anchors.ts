import { combineAnchors, pageAnchors, UNKNOWN_ANCHORS, type PageAnchors } from './page-anchors.js';

/** Snippets including snippets deeper than this are not followed (the page is then taken as unknown). */
const MAX_DEPTH = 8;

export interface ReadPageAnchorsParams {
  file: string;
  /** how the site compiles a page (site-rules.ts), which decides what is a code block in it */
  format(file: string): 'md' | 'mdx';
  read(file: string): Promise<string | undefined>;
  /** The file an import specifier in `fromFile` names, if it exists. */
  resolveImport(fromFile: string, specifier: string): Promise<string | undefined>;
}

/**
 * The anchors of a page as the site renders it: its own, and those of the Markdown snippets it includes
 * (and they include), read from disk. `undefined` when the page cannot be read; unknown (incomplete) when
 * a snippet cannot be. A snippet included again further down adds nothing new and is not followed twice.
 */
export async function readPageAnchors(params: ReadPageAnchorsParams): Promise<PageAnchors | undefined> {
  const { read, resolveImport } = params;
  const visit = async (file: string, trail: readonly string[]): Promise<PageAnchors | undefined> => {
    const text = await read(file);
    if (text === undefined) return undefined;
    const own = pageAnchors(text, params.format(file));
    if (own.snippets.length === 0) return own;
    const parts: PageAnchors[] = [own];
    for (const specifier of own.snippets) {
      const target = await resolveImport(file, specifier);
      if (target !== undefined && trail.includes(target)) continue;
      const included =
        target === undefined || trail.length >= MAX_DEPTH ? undefined : await visit(target, [...trail, target]);
      parts.push(included ?? UNKNOWN_ANCHORS);
    }
    return combineAnchors(parts);
  };
  return visit(params.file, [params.file]);
}
