// Bundles the dashboard (src/http/dashboard/app/*.js: preact + htm components, Chart.js) into the one script the
// dashboard route serves, so the page loads nothing from a CDN. `npm run build` bundles it into dist/ (scripts/build.js);
// the tests bundle it beside the sources (`node scripts/build-dashboard.js`, run by scripts/test.sh and by the browser
// tests when it is stale).
//
// Plain JavaScript, like scripts/build.js, which calls it before anything is compiled.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCES = 'src/http/dashboard/app';
/** Where the dashboard route looks for the bundle, relative to the tree it runs from (src/ or dist/src/). */
export const BUNDLE_PATH = 'src/http/dashboard/build/dashboard.js';

/** Whether the bundle beside the sources is missing or older than one of them (dependencies are pinned). */
export function dashboardBundleStale() {
  const bundle = path.join(ROOT, BUNDLE_PATH);
  if (!fs.existsSync(bundle)) return true;
  const built = fs.statSync(bundle).mtimeMs;
  const sources = path.join(ROOT, SOURCES);
  return fs.readdirSync(sources).some((file) => fs.statSync(path.join(sources, file)).mtimeMs > built);
}

/**
 * Bundles the app of `sourceRoot` into `treeRoot` (minified) and returns its size in bytes. Written beside and renamed into place,
 * so a server reading it while another process builds (parallel test workers) never sends half a file.
 */
export async function buildDashboard(treeRoot = ROOT, sourceRoot = ROOT) {
  const { build } = await import('esbuild');
  const outfile = path.join(treeRoot, BUNDLE_PATH);
  const result = await build({
    entryPoints: [path.join(sourceRoot, SOURCES, 'main.js')],
    outfile,
    write: false,
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    legalComments: 'eof',
    logLevel: 'warning',
  });
  const [bundle] = result.outputFiles;
  const temporary = `${outfile}.${process.pid}.tmp`;
  fs.mkdirSync(path.dirname(outfile), { recursive: true });
  fs.writeFileSync(temporary, bundle.contents);
  fs.renameSync(temporary, outfile);
  return bundle.contents.byteLength;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const bytes = await buildDashboard();
  console.log(`${BUNDLE_PATH}: ${Math.round(bytes / 1024)} KiB`);
}
