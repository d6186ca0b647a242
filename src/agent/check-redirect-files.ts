import path from 'node:path';
import type { CheckContext } from './check-context.js';
import { shadowProblems } from './check-mintlify-config.js';
import { linkCandidates } from './link-candidates.js';
import { redirectChainProblems, type RedirectEntry } from './redirect-chains.js';
import { parseRedirectFile, redirectFileKind } from './redirect-files.js';
import { normalizeSitePath } from './redirect-rules.js';

const ELSEWHERE = /^([a-z][a-z0-9+.-]*:|\/\/)/i;
const PATTERN = /[:*]/;
const key = (r: RedirectEntry) => `${r.source}\n${r.destination}`;

/**
 * Redirects the edits added outside Mintlify's config (host files, Docusaurus's client-redirects, MkDocs's
 * `redirect_maps`): each destination must be a page, none may go through another redirect or loop, and none may hide
 * a page that exists. Redirects the files already had are left alone.
 */
export async function checkRedirectFiles(context: CheckContext): Promise<string[]> {
  const problems: string[] = [];
  for (const file of context.originals.keys()) {
    const kind = redirectFileKind(file);
    if (!kind || !(await context.exists(file))) continue;
    const entries = parseRedirectFile(file, (await context.read(file)) ?? '');
    const before = new Set(parseRedirectFile(file, context.originals.get(file) ?? '').map(key));
    const isNew = (r: RedirectEntry) => !before.has(key(r));
    problems.push(...redirectChainProblems({ file, entries, isNew }));
    // a destination redirected onwards lands somewhere: a chain, reported above
    const sources = new Set(entries.map((r) => normalizeSitePath(r.source).toLowerCase()));
    const redirected = (destination: string) => sources.has(normalizeSitePath(destination).toLowerCase());
    for (const entry of entries.filter(isNew)) {
      if (kind === 'mkdocs') problems.push(...(await mkdocsProblems(context, file, entry, redirected)));
      else problems.push(...(await siteProblems(context, file, entry, redirected)));
    }
  }
  return problems;
}

type Redirected = (destination: string) => boolean;

async function siteProblems(
  context: CheckContext,
  file: string,
  entry: RedirectEntry,
  redirected: Redirected,
): Promise<string[]> {
  const problems = await shadowProblems(context, file, entry.source);
  const { destination } = entry;
  if (ELSEWHERE.test(destination) || PATTERN.test(destination) || redirected(destination)) return problems;
  const url = destination.startsWith('/') ? destination : `/${destination}`;
  const candidates = linkCandidates({ fromFile: file, url, layout: context.layout });
  if (!candidates || (await context.firstExisting(candidates)) !== undefined) return problems;
  if (await context.routes.resolve(url)) return problems;
  return [...problems, `${file}: the redirect from "${entry.source}" goes to "${destination}", which does not exist.`];
}

/** `redirect_maps` name files under the docs folder: the old one must be gone, the new one there. */
async function mkdocsProblems(
  context: CheckContext,
  file: string,
  entry: RedirectEntry,
  redirected: Redirected,
): Promise<string[]> {
  const problems: string[] = [];
  const docs = context.layout.docsRoot || path.posix.dirname(file).replace(/^\.$/, '');
  const inDocs = (p: string) => path.posix.normalize(path.posix.join(docs || '.', p));
  const elsewhere = ELSEWHERE.test(entry.destination) || redirected(entry.destination);
  if (!elsewhere && !(await context.exists(inDocs(entry.destination))))
    problems.push(`${file}: the redirect from "${entry.source}" goes to "${entry.destination}", which does not exist.`);
  if (await context.exists(inDocs(entry.source)))
    problems.push(
      `${file}: the redirect from "${entry.source}" hides the existing page ${inDocs(entry.source)}; redirect only addresses that no longer have a page.`,
    );
  return problems;
}
