import path from 'node:path';
import { parseDocument } from 'yaml';
import type { RedirectEntry } from './redirect-chains.js';

/** Where a redirect file's entries point: site paths (hosts, Docusaurus) or docs files (MkDocs `redirect_maps`). */
export type RedirectFileKind = 'site' | 'mkdocs';

/** The files, other than Mintlify's config, where docs sites keep redirects; null for any other file. */
export function redirectFileKind(file: string): RedirectFileKind | null {
  const name = path.posix.basename(file);
  if (name === '_redirects' || name === 'vercel.json' || name === 'netlify.toml') return 'site';
  if (/^docusaurus\.config\.(js|mjs|cjs|ts)$/.test(name)) return 'site';
  if (name === 'mkdocs.yml' || name === 'mkdocs.yaml') return 'mkdocs';
  return null;
}

const quoted = String.raw`["'\x60]([^"'\x60]+)["'\x60]`;

/**
 * The redirects a file states, read the way its host or framework reads them: Netlify/Cloudflare `_redirects`
 * lines (`/from /to [status]`), vercel.json `redirects`, netlify.toml `[[redirects]]` tables, the `from`/`to` pairs
 * of Docusaurus's client-redirects plugin, MkDocs `redirect_maps`. Unreadable text states none. Pure.
 */
export function parseRedirectFile(file: string, text: string): RedirectEntry[] {
  const name = path.posix.basename(file);
  if (name === '_redirects')
    return text.split('\n').flatMap((line) => {
      const [source, destination] = line.replace(/#.*$/, '').trim().split(/\s+/);
      return source && destination ? [{ source, destination }] : [];
    });
  if (name === 'vercel.json') {
    try {
      const redirects = (JSON.parse(text) as { redirects?: unknown }).redirects;
      return (Array.isArray(redirects) ? redirects : []).filter(
        (r): r is RedirectEntry => typeof r?.source === 'string' && typeof r?.destination === 'string',
      );
    } catch {
      return [];
    }
  }
  if (name === 'netlify.toml')
    return text
      .split(/^\s*\[\[redirects\]\]\s*$/m)
      .slice(1)
      .flatMap((table) => {
        const body = table.split(/^\s*\[/m)[0];
        const source = body.match(/^\s*from\s*=\s*"([^"]+)"/m)?.[1];
        const destination = body.match(/^\s*to\s*=\s*"([^"]+)"/m)?.[1];
        return source && destination ? [{ source, destination }] : [];
      });
  if (name.startsWith('docusaurus.config.')) {
    const pairs = new RegExp(String.raw`from\s*:\s*${quoted}\s*,\s*to\s*:\s*${quoted}`, 'g');
    return [...text.matchAll(pairs)].map((m) => ({ source: m[1], destination: m[2] }));
  }
  const config = parseDocument(text, { logLevel: 'silent' }).toJS({ maxAliasCount: 100 }) as {
    plugins?: unknown[];
  } | null;
  const maps = (config?.plugins ?? []).flatMap((plugin) => {
    const map = (plugin as { redirects?: { redirect_maps?: Record<string, unknown> } } | null)?.redirects
      ?.redirect_maps;
    return map && typeof map === 'object' ? Object.entries(map) : [];
  });
  return maps.flatMap(([source, destination]) => (typeof destination === 'string' ? [{ source, destination }] : []));
}
