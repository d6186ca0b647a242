import { normalizeSitePath } from './redirect-rules.js';

/** A redirect as any framework's or host's configuration states it, by site path. */
export interface RedirectEntry {
  source: string;
  destination: string;
}

const PATTERN = /[:*]/;
const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Chains and loops among exact redirects, as sentences, for the entries `isNew` picks (redirects the edits added): a
 * redirect whose destination is itself redirected sends readers (and AI agents, which often stop after one hop)
 * through two, and one that comes back to its own source never lands. Pure.
 */
export function redirectChainProblems(params: {
  file: string;
  entries: readonly RedirectEntry[];
  isNew: (entry: RedirectEntry) => boolean;
}): string[] {
  const next = new Map<string, string>();
  for (const { source, destination } of params.entries) {
    if (PATTERN.test(source) || PATTERN.test(destination) || EXTERNAL.test(destination)) continue;
    const from = normalizeSitePath(source).toLowerCase();
    if (!next.has(from)) next.set(from, normalizeSitePath(destination));
  }
  const problems: string[] = [];
  for (const entry of params.entries) {
    if (!params.isNew(entry) || PATTERN.test(entry.source) || PATTERN.test(entry.destination)) continue;
    if (EXTERNAL.test(entry.destination)) continue;
    const start = normalizeSitePath(entry.source).toLowerCase();
    const hops = [normalizeSitePath(entry.destination)];
    const seen = new Set([start]);
    while (next.has(hops.at(-1)!.toLowerCase()) && hops.length < 20) {
      const at = hops.at(-1)!.toLowerCase();
      if (seen.has(at)) break;
      seen.add(at);
      hops.push(next.get(at)!);
    }
    const loops = seen.has(hops.at(-1)!.toLowerCase());
    if (hops.length === 1 && !loops) continue;
    problems.push(
      loops
        ? `${params.file}: the redirect from "${entry.source}" loops (${[entry.source, ...hops].join(' → ')}); readers never land on a page.`
        : `${params.file}: the redirect from "${entry.source}" goes to "${entry.destination}", which is itself redirected (${hops.join(' → ')}); point it at "${hops.at(-1)}" directly.`,
    );
  }
  return problems;
}
