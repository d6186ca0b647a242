/**
 * Fails when the tree drifts from the layout the docs describe:
 * - test/ mirrors src/: a test of `src/a/b.ts` is `test/a/b.test.ts`, or `test/a/b/<aspect>.test.ts` when one module
 *   has several test files; tests of scripts/ and of test/support/ mirror those the same way; end-to-end tests live
 *   in test/e2e/; every other non-test file lives in test/support/ or test/fixtures/;
 * - the code map (docs/architecture.md) names every top-level folder of src/, and every repository path README.md
 *   or a page under docs/ names in backticks exists (a `*` or a `<placeholder>` in a name matches within one path
 *   segment).
 *
 *   npm run check:layout     (also run by `npm test`)
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Every file below `dir`, as paths relative to `root` with forward slashes. */
export function listFiles(root: string, dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(path.join(root, at), { withFileTypes: true })) {
      const rel = at ? `${at}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else found.push(rel);
    }
  };
  if (fs.existsSync(path.join(root, dir))) walk(dir);
  return found;
}

/** The module a test file tests, or null when it mirrors nothing; `modules` holds repository-relative paths. */
export function testedModule(testFile: string, modules: ReadonlySet<string>): string | null {
  const stem = testFile.replace(/^test\//, '').replace(/\.test\.ts$/, '');
  const candidates = (rel: string) => [
    `src/${rel}.ts`,
    `scripts/${rel.replace(/^scripts\//, '')}.ts`,
    `test/${rel}.ts`,
  ];
  const own = candidates(stem).filter((c) => (c.startsWith('test/') ? stem.startsWith('support/') : true));
  const parent = path.posix.dirname(stem);
  const grouped =
    parent === '.'
      ? []
      : candidates(parent).filter((c) => (c.startsWith('test/') ? parent.startsWith('support/') : true));
  return [...own, ...grouped].find((c) => modules.has(c)) ?? null;
}

/** Every way test/ breaks the mirror rule, as sentences; `files` are repository-relative paths under test/. */
export function testLayoutProblems(files: readonly string[], modules: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const file of [...files].sort()) {
    if (file.startsWith('test/fixtures/') || file.startsWith('test/e2e/')) continue;
    if (!file.endsWith('.test.ts')) {
      if (!file.startsWith('test/support/')) problems.push(`${file}: a harness or helper belongs in test/support/`);
      continue;
    }
    if (
      file.startsWith('test/scripts/') &&
      !modules.has(`scripts/${file.slice('test/scripts/'.length, -'.test.ts'.length)}.ts`)
    ) {
      problems.push(`${file}: tests nothing in scripts/ by that name`);
    } else if (!testedModule(file, modules)) {
      problems.push(
        `${file}: mirrors no module (expected src/<path>.ts for test/<path>.test.ts or test/<path>/*.test.ts)`,
      );
    }
  }
  return problems;
}

/** Where the code map lives: its "## Code map" section. */
export const CODE_MAP_PAGE = 'docs/architecture.md';

/** The code map: the text from the page's "## Code map" heading to the next second-level heading. */
export function codeMapSection(page: string): string {
  const start = page.search(/^## Code map\b/m);
  if (start < 0) return '';
  const rest = page.slice(start + 1);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** Every way the code map leaves out a top-level folder of src/ or describes one that is gone. */
export function codeMapProblems(params: { codeMap: string; srcFolders: readonly string[] }): string[] {
  const { codeMap, srcFolders } = params;
  if (!codeMap) return [`${CODE_MAP_PAGE} has no "## Code map" section`];
  const problems: string[] = [];
  const described = new Set([...codeMap.matchAll(/\*\*`([a-z-]+)\/`\*\*/g)].map((m) => m[1]));
  for (const folder of srcFolders)
    if (!described.has(folder)) problems.push(`the code map does not describe src/${folder}/`);
  for (const folder of described)
    if (!srcFolders.includes(folder)) problems.push(`the code map describes src/${folder}/, which does not exist`);
  return problems;
}

/** Every repository path a page (`file`) names in backticks that matches no file or folder in `paths`. */
export function missingPaths(readme: string, paths: readonly string[], file = 'README.md'): string[] {
  const problems: string[] = [];
  for (const [, named] of readme.matchAll(/`((?:src|test|scripts|bench|prisma)\/[^`\s]*)`/g)) {
    // `<name>` is a placeholder, matched like `*`
    const wanted = named.replace(/\/$/, '').replace(/<[^>]*>/g, '*');
    const pattern = new RegExp(
      `^${wanted
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*')}(/|$)`,
    );
    if (!paths.some((p) => pattern.test(p))) problems.push(`${file} names ${named}, which does not exist`);
  }
  return [...new Set(problems)];
}

/** Both checks over the repository at `root`. */
export function layoutProblems(root: string): string[] {
  const modules = new Set([
    ...listFiles(root, 'src'),
    ...listFiles(root, 'scripts'),
    ...listFiles(root, 'test/support'),
  ]);
  const srcFolders = fs
    .readdirSync(path.join(root, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const read = (file: string) =>
    fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : '';
  const pages = ['README.md', ...listFiles(root, 'docs').filter((f) => /\.mdx?$/.test(f))];
  const paths = ['src', 'test', 'scripts', 'bench', 'prisma'].flatMap((dir) => listFiles(root, dir));
  return [
    ...testLayoutProblems(listFiles(root, 'test'), modules),
    ...codeMapProblems({ codeMap: codeMapSection(read(CODE_MAP_PAGE)), srcFolders }),
    ...pages.flatMap((page) => missingPaths(read(page), paths, page)),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(import.meta.dirname, '..');
  const problems = layoutProblems(root);
  if (problems.length) {
    console.error('the tree drifts from its layout (scripts/check-layout.ts):');
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log(`layout holds: test/ mirrors src/, the code map (${CODE_MAP_PAGE}) matches the tree`);
}
