/**
 * Bundles the dashboard (src/http/dashboard/app/*.js: preact + htm components, Chart.js) into one file that the
 * dashboard route serves, so the page loads nothing from a CDN and nothing but itself from node_modules.
 *
 *   npx tsx scripts/build-dashboard.ts          (also run by `npm run build:dashboard`; the browser tests call it)
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { DASHBOARD_BUNDLE } from '../src/http/routes/dashboard.js';

const root = path.resolve(import.meta.dirname, '..');
const sources = path.join(root, 'src/http/dashboard/app');

/** Whether the bundle is missing or older than one of its sources (the app's own files; dependencies are pinned). */
export function dashboardBundleStale(): boolean {
  if (!fs.existsSync(DASHBOARD_BUNDLE)) return true;
  const built = fs.statSync(DASHBOARD_BUNDLE).mtimeMs;
  return fs.readdirSync(sources).some((file) => fs.statSync(path.join(sources, file)).mtimeMs > built);
}

/**
 * Writes the bundle (minified) and returns its size in bytes. Written beside and renamed into place, so a server
 * reading it while another process builds (parallel test workers) never sends half a file.
 */
export async function buildDashboard(): Promise<number> {
  const result = await build({
    entryPoints: [path.join(sources, 'main.js')],
    outfile: DASHBOARD_BUNDLE,
    write: false,
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    legalComments: 'eof',
    logLevel: 'warning',
  });
  const [bundle] = result.outputFiles;
  const temporary = `${DASHBOARD_BUNDLE}.${process.pid}.tmp`;
  fs.mkdirSync(path.dirname(DASHBOARD_BUNDLE), { recursive: true });
  fs.writeFileSync(temporary, bundle.contents);
  fs.renameSync(temporary, DASHBOARD_BUNDLE);
  return bundle.contents.byteLength;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const bytes = await buildDashboard();
  console.log(`${path.relative(root, DASHBOARD_BUNDLE)}: ${Math.round(bytes / 1024)} KiB`);
}
