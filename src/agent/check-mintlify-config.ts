import path from 'node:path';
import type { CheckContext } from './check-context.js';
import { refTarget, refsIn, resolveJsonRefs, type JsonFiles } from './json-refs.js';
import { linkCandidates, navigationCandidates } from './link-candidates.js';
import { mintlifyNavigationEntries, type NavigationEntry } from './navigation-pages.js';
import { mintlifyConfigValueProblems } from './mintlify-config-values.js';
import { redirectRules } from './redirect-rules.js';
import { redirectChainProblems } from './redirect-chains.js';

export interface MintlifyConfigVersions {
  configPath: string;
  now: JsonFiles;
  before: JsonFiles;
}

function referrers(files: JsonFiles, target: string): string[] {
  return [...files]
    .filter(([file, loaded]) => refsIn(loaded.value).some((ref) => refTarget(file, ref) === target))
    .map(([file]) => file);
}

function fileProblems(context: CheckContext, { now, before }: MintlifyConfigVersions): string[] {
  const problems: string[] = [];
  for (const [file, loaded] of now) {
    if (loaded.error && context.originals.has(file) && !before.get(file)?.error)
      problems.push(`${file} is no longer valid JSON: ${loaded.error}`);
    if (loaded.missing && (!before.get(file)?.missing || context.removed.has(file))) {
      for (const from of referrers(now, file))
        problems.push(`${from}: the "$ref" to ${file} points at a file that does not exist.`);
    }
  }
  return problems;
}

const entryId = (entry: NavigationEntry) => `${entry.kind}:${entry.value}`;

async function navigationProblems(
  context: CheckContext,
  { configPath, now, before }: MintlifyConfigVersions,
): Promise<string[]> {
  const problems: string[] = [];
  const earlier = new Set(now === before ? [] : mintlifyNavigationEntries(before, configPath).map(entryId));
  const unchanged = now === before;
  for (const entry of mintlifyNavigationEntries(now, configPath)) {
    const candidates =
      entry.kind === 'page'
        ? navigationCandidates(entry.value, context.layout)
        : [path.posix.normalize(path.posix.join(context.layout.docsRoot || '.', entry.value.replace(/^\/+/, '')))];
    // Entries the navigation already had, to nothing removed, are skipped without touching the disk: a large
    // site has thousands, and only new or affected entries can be the agent's doing.
    if ((unchanged || earlier.has(entryId(entry))) && !candidates.some((c) => context.removed.has(c))) continue;
    if ((await context.firstExisting(candidates)) !== undefined) continue;
    problems.push(
      entry.kind === 'page'
        ? `${entry.file}: the navigation entry "${entry.value}" has no page (expected ${candidates.join(' or ')}).`
        : `${entry.file}: the OpenAPI spec "${entry.value}" does not exist (expected ${candidates[0]}).`,
    );
  }
  return problems;
}

async function redirectProblems(
  context: CheckContext,
  { configPath, now, before }: MintlifyConfigVersions,
): Promise<string[]> {
  const problems: string[] = [];
  const earlier = new Set(
    now === before
      ? []
      : redirectRules(resolveJsonRefs(before, configPath)).list.map((r) => `${r.source}\n${r.destination}`),
  );
  for (const { source, destination } of context.redirects.list) {
    // Destinations with parameters (`/new/:slug*`) or elsewhere (`https://…`) name no single file.
    if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(destination) || /[:*]/.test(destination)) continue;
    const url = destination.startsWith('/') ? destination : `/${destination}`;
    const candidates = linkCandidates({ fromFile: configPath, url, layout: context.layout });
    if (!candidates) continue;
    const removedTarget = candidates.find((c) => context.removed.has(c));
    const isNew = now !== before && !earlier.has(`${source}\n${destination}`);
    if (!isNew && !removedTarget) continue;
    if ((await context.firstExisting(candidates)) !== undefined) continue;
    // A destination that is itself redirected onwards lands somewhere: a chain, reported below when new.
    if (redirectRules({ redirects: context.redirects.list.filter((r) => r.source !== source) }).matches(url)) continue;
    problems.push(
      removedTarget && !isNew
        ? `${configPath}: the redirect from "${source}" goes to "${destination}", which you deleted or moved; point it at the page's new address.`
        : `${configPath}: the redirect from "${source}" goes to "${destination}", which does not exist.`,
    );
  }
  const isNew = (r: { source: string; destination: string }) =>
    now !== before && !earlier.has(`${r.source}\n${r.destination}`);
  problems.push(...redirectChainProblems({ file: configPath, entries: context.redirects.list, isNew }));
  for (const redirect of context.redirects.list.filter(isNew))
    problems.push(...(await shadowProblems(context, configPath, redirect.source)));
  return problems;
}

/**
 * A new redirect whose source is a page that exists: the host answers the redirect, so the page can no longer be
 * reached (a page the agent removed is what a redirect should replace, and is not reported).
 */
export async function shadowProblems(context: CheckContext, file: string, source: string): Promise<string[]> {
  if (/[:*]/.test(source) || /^([a-z][a-z0-9+.-]*:|\/\/)/i.test(source)) return [];
  const url = source.startsWith('/') ? source : `/${source}`;
  const candidates = linkCandidates({ fromFile: file, url, layout: context.layout });
  const page = candidates && (await context.firstExisting(candidates));
  return page === undefined || page === null
    ? []
    : [
        `${file}: the redirect from "${source}" hides the existing page ${page}; redirect only addresses that no longer have a page.`,
      ];
}

/** Values `mint validate` rejects, new since the edits; mint.json (the older format) has other rules. */
function valueProblems({ configPath, now, before }: MintlifyConfigVersions): string[] {
  if (now === before || !configPath.endsWith('docs.json') || now.get(configPath)?.value === undefined) return [];
  const earlier = new Set(mintlifyConfigValueProblems(resolveJsonRefs(before, configPath)));
  return mintlifyConfigValueProblems(resolveJsonRefs(now, configPath))
    .filter((problem) => !earlier.has(problem))
    .map((problem) => `${configPath}: ${problem}`);
}

/** Problems in a Mintlify config and the files it pulls in with `$ref`: JSON, values, navigation, OpenAPI specs, redirects. */
export async function checkMintlifyConfig(context: CheckContext, versions: MintlifyConfigVersions): Promise<string[]> {
  return [
    ...fileProblems(context, versions),
    ...valueProblems(versions),
    ...(await navigationProblems(context, versions)),
    ...(await redirectProblems(context, versions)),
  ];
}
