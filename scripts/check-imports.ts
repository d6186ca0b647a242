/**
 * Fails when src/ imports upward or in a circle. Folders are ranked in layers, top first; a module may import its
 * own layer or any layer below, never one above, and no two modules (or folders) may import each other, however
 * indirectly. Type-only imports count: they tie the folders together just the same. The graph is src/'s own files:
 * an import that leaves src/ (a package, or a file elsewhere in the repository such as a generated client) is not
 * an edge, as its target is not part of the layering.
 *
 *   npm run check:imports     (also run by `npm test`, before the type-check)
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Top first. A node is a folder of src/ or a file at its root. */
export const LAYERS: readonly (readonly string[])[] = [
  ['main.ts', 'cli'],
  ['http', 'webhooks'],
  ['automations', 'conversations', 'reviews', 'problems', 'outcomes'],
  ['jobs'],
  ['agent', 'analytics'],
  ['github', 'projects', 'keys', 'settings', 'notifications'],
  ['git', 'metrics'],
  ['db', 'config.ts', 'logger.ts', 'clock.ts', 'errors.ts', 'ids.ts', 'calendar.ts', 'private-addresses.ts'],
];

/** The node of a file under src/: the first segment of its path relative to src/ ("jobs/worker.ts" → "jobs"). */
export function nodeOf(file: string): string {
  return file.split('/')[0];
}

/** Import edges between files, both relative to src/. */
export type FileEdges = Map<string, Set<string>>;

/** Strongly connected components with more than one member (or a self-edge): every import cycle. */
export function cycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edges.get(v)?.has(v)) found.push(component.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** Every rule the imports break, as sentences; empty when the graph is clean. */
export function importProblems(files: FileEdges, layers: readonly (readonly string[])[] = LAYERS): string[] {
  const rank = new Map<string, number>();
  layers.forEach((layer, i) => {
    for (const node of layer) rank.set(node, i);
  });
  const problems: string[] = [];
  const folders: Map<string, Set<string>> = new Map();
  for (const [from, targets] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const source = nodeOf(from);
    if (!rank.has(source)) problems.push(`${from}: ${source} has no layer in scripts/check-imports.ts`);
    for (const to of [...targets].sort()) {
      const target = nodeOf(to);
      if (target === source) continue;
      if (!folders.has(source)) folders.set(source, new Set());
      folders.get(source)!.add(target);
      if (rank.has(source) && rank.has(target) && rank.get(target)! < rank.get(source)!) {
        problems.push(`${from} imports ${to}: ${source} may not import ${target}, a layer above it`);
      }
    }
  }
  for (const cycle of cycles(folders)) problems.push(`folders import each other: ${cycle.join(' ↔ ')}`);
  for (const cycle of cycles(files)) problems.push(`files import each other: ${cycle.join(' ↔ ')}`);
  return problems;
}

/**
 * The relative imports of every TypeScript file under `srcDir` (static, dynamic, type-only and re-exports) that
 * point at another file under `srcDir`.
 */
export function readImports(srcDir: string): FileEdges {
  const edges: FileEdges = new Map();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) {
        const from = path.relative(srcDir, full).split(path.sep).join('/');
        const targets = new Set<string>();
        for (const { fileName } of ts.preProcessFile(fs.readFileSync(full, 'utf8'), true, true).importedFiles) {
          if (!fileName.startsWith('.')) continue;
          const resolved = path
            .relative(srcDir, path.resolve(path.dirname(full), fileName))
            .split(path.sep)
            .join('/');
          if (resolved === '..' || resolved.startsWith('../') || path.isAbsolute(resolved)) continue;
          targets.add(resolved.replace(/\.js$/, '.ts'));
        }
        edges.set(from, targets);
      }
    }
  };
  walk(srcDir);
  return edges;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const src = path.resolve(import.meta.dirname, '../src');
  const problems = importProblems(readImports(src));
  if (problems.length) {
    console.error(
      `src/ imports upward or in a circle (layers, top first: ${LAYERS.map((l) => l.join(' ')).join(' | ')}):`,
    );
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log(`imports point one way: ${readImports(src).size} files, ${LAYERS.length} layers, no cycle`);
}
