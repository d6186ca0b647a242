/**
 * Scribe checks its own docs with the checks its agent runs on a docs repository before opening a pull request
 * (src/agent/check-edits.ts): every page under docs/ is taken as new, so each is checked in full — it parses as
 * the site builds it (MDX), its links, anchors and snippet imports lead somewhere, docs/docs.json holds values the
 * build accepts and its navigation and OpenAPI entries exist. Beyond what a build enforces, it also wants every page
 * in the navigation, README.md's links to resolve inside the repository, and the generated pages to match the code.
 *
 *   npx tsx scripts/docs/check-docs.ts     (npm test runs it; exit 1 on any finding)
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkEdits } from '../../src/agent/check-edits.js';
import { anchorKey, pageAnchors } from '../../src/agent/page-anchors.js';
import { mintlifyNavigationPages } from '../../src/agent/navigation-pages.js';
import { scanLinks } from '../../src/agent/scan-links.js';
import { stalePages } from './generate-docs.js';

const PAGE = /\.mdx?$/;

function filesUnder(root: string, dir: string): string[] {
  const at = path.join(root, dir);
  if (!fs.existsSync(at)) return [];
  return fs
    .readdirSync(at, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Pages under docs/ that no navigation entry lists: a reader of the site could never reach them. */
function pagesOutsideNavigation(root: string, files: readonly string[]): string[] {
  let config: unknown;
  try {
    config = JSON.parse(fs.readFileSync(path.join(root, 'docs/docs.json'), 'utf8'));
  } catch {
    return []; // checkEdits reports a missing or broken docs.json
  }
  const listed = new Set(mintlifyNavigationPages(config).map((p) => p.replace(/^\/+/, '').replace(PAGE, '')));
  return files
    .filter((f) => PAGE.test(f) && !f.startsWith('docs/snippets/'))
    .filter((f) => !listed.has(f.slice('docs/'.length).replace(PAGE, '')))
    .map((f) => `${f}: no navigation entry in docs/docs.json lists this page.`);
}

/** README.md's relative links: each must name a file in the repository and, into a page, one of its headings. */
function readmeLinkProblems(root: string): string[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const problems: string[] = [];
  for (const { url, line } of scanLinks(readme, 'md').links) {
    if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(url)) continue;
    const [file, fragment] = url.split('#');
    const target = file ? path.posix.normalize(decodeURI(file)) : 'README.md';
    const where = `README.md:${line}: the link "${url}"`;
    if (target.startsWith('../') || path.posix.isAbsolute(target)) {
      problems.push(`${where} leads outside the repository.`);
      continue;
    }
    if (!fs.existsSync(path.join(root, target))) {
      problems.push(`${where} points at a file that does not exist.`);
      continue;
    }
    if (fragment && PAGE.test(target)) {
      const anchors = pageAnchors(
        fs.readFileSync(path.join(root, target), 'utf8'),
        target.endsWith('.mdx') ? 'mdx' : 'md',
      );
      if (!anchors.keys.has(anchorKey(fragment)))
        problems.push(`${where} points at a heading ${target} does not have.`);
    }
  }
  return problems;
}

/** Every finding on the docs of the repository at `root`; empty when they are in order. */
export async function docsProblems(root: string): Promise<string[]> {
  const files = filesUnder(root, 'docs');
  if (!files.includes('docs/docs.json')) return ['docs/docs.json is missing'];
  const originals = new Map(files.map((f) => [f, null]));
  return [
    ...(await checkEdits({ workspaceDir: root, originals })),
    ...pagesOutsideNavigation(root, files),
    ...readmeLinkProblems(root),
    ...stalePages(root).map((f) => `${f} differs from what the code gives: run npm run docs:generate`),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(import.meta.dirname, '../..');
  const problems = await docsProblems(root);
  if (problems.length) {
    console.error('the docs have problems (scripts/docs/check-docs.ts):');
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log('docs hold: every page parses and is in the navigation, every link and anchor resolves');
}
