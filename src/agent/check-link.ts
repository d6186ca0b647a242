import type { CheckContext } from './check-context.js';
import { importCandidates, linkCandidates, sitePathOf } from './link-candidates.js';
import { anchorKey } from './page-anchors.js';
import type { PageLink } from './parse-page.js';

const PAGE = /\.(mdx?|markdown)$/i;

function fragmentOf(url: string): string | undefined {
  const hash = url.indexOf('#');
  const fragment = hash < 0 ? '' : url.slice(hash + 1);
  // Text fragments (#:~:text=) and empty or punctuation-only anchors name no heading.
  return fragment === '' || fragment.startsWith(':~:') || anchorKey(fragment) === '' ? undefined : fragment;
}

/** Whether any page lost an anchor with this key: only then can an old link to an anchor have broken. */
function anyPageLost(context: CheckContext, key: string): boolean {
  for (const keys of context.lostAnchors.values()) if (keys.has(key)) return true;
  return false;
}

/**
 * What is wrong with a link in `fromFile`, if anything. New links (`isNew`) are checked in full; links
 * that were there before only where the edits can have broken them: their file was removed or their
 * anchor disappeared. A large site has many old problems that are not the agent's doing.
 */
export async function linkProblem(
  context: CheckContext,
  fromFile: string,
  link: PageLink,
  isNew: boolean,
): Promise<string | undefined> {
  const { site, layout, removed, lostAnchors } = context;
  const { url, line } = link;
  if (!site.checksLink(fromFile, url)) return undefined;
  const fragment = site.anchors ? fragmentOf(url) : undefined;
  const key = fragment === undefined ? undefined : anchorKey(fragment);
  const where = `${fromFile}:${line}: the link "${url}"`;

  if (url.trim().startsWith('#')) {
    if (key === undefined || (!isNew && !lostAnchors.get(fromFile)?.has(key))) return undefined;
    const anchors = await context.anchorsOf(fromFile);
    if (!anchors?.complete || anchors.keys.has(key)) return undefined;
    return `${where} points at a heading or anchor this page does not have.`;
  }

  const candidates = linkCandidates({ fromFile, url, layout });
  if (!candidates) return undefined;
  const sitePath = sitePathOf({ fromFile, url, layout });
  const removedTarget = candidates.find((c) => removed.has(c)) ?? context.routes.removedAt(sitePath);
  // The pure test first: a link the page already had, to nothing the edits removed, needs no disk look-up.
  if (!isNew && !removedTarget && !(key !== undefined && anyPageLost(context, key))) return undefined;
  let target = await context.firstExisting(candidates);
  if (target === undefined) {
    const routed = await context.routes.resolve(sitePath);
    if (routed === true) return undefined;
    if (routed === undefined) {
      return removedTarget && !isNew
        ? `${where} points at ${removedTarget}, which you deleted or moved.`
        : `${where} points at a file that does not exist.`;
    }
    target = routed;
  }
  if (key === undefined || !PAGE.test(target) || (!isNew && !lostAnchors.get(target)?.has(key))) return undefined;
  const anchors = await context.anchorsOf(target);
  if (!anchors?.complete || anchors.keys.has(key)) return undefined;
  return isNew
    ? `${where} points at a heading or anchor ${target} does not have.`
    : `${where} points at a heading of ${target} that you removed or renamed.`;
}

/** What is wrong with an `import` in `fromFile` (a snippet or component that does not exist), if anything. */
export async function importProblem(
  context: CheckContext,
  fromFile: string,
  specifier: PageLink,
  isNew: boolean,
): Promise<string | undefined> {
  const candidates = importCandidates({ fromFile, specifier: specifier.url, layout: context.layout });
  if (!candidates) return undefined;
  const removedTarget = candidates.find((c) => context.removed.has(c));
  if (!isNew && !removedTarget) return undefined;
  if ((await context.firstExisting(candidates)) !== undefined) return undefined;
  const where = `${fromFile}:${specifier.line}: the import "${specifier.url}"`;
  return removedTarget && !isNew
    ? `${where} needs ${removedTarget}, which you deleted or moved.`
    : `${where} names a file that does not exist.`;
}
