#!/usr/bin/env node
// Compiles Scribe for production: `node scripts/build.js` (npm run build) writes dist/, and `--if-stale` does so only
// when dist/ is missing or older than its sources (npm start and bin/scribe.js call that, so a fresh clone needs no
// separate step). dist/ mirrors the repository: src/ and the generated Prisma clients as JavaScript, beside them the
// files they read at run time (dashboard page, agent lists, migrations, app.yml, package.json), so every path a
// module resolves from its own location finds the same file in dist/ as in the sources.
//
// Plain JavaScript on purpose: it runs before anything is compiled, and tsx is a development tool.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDashboard } from './build-dashboard.js';

const ROOT = path.resolve(import.meta.dirname, '..');
/** What the build reads; a newer file or folder (an edit, an added or deleted file) makes dist/ stale. */
const INPUTS = [
  'src',
  'prisma',
  'app.yml',
  'package.json',
  'tsconfig.json',
  'scripts/build.js',
  'scripts/build-dashboard.js',
];
/** Copied as they are: everything but TypeScript under src/, the migrations, and the files src/ reads from the root. */
const COPIED = ['src', 'prisma/sqlite/migrations', 'prisma/postgres/migrations', 'app.yml', 'package.json'];
const STAMP = '.built';

function walk(file, visit) {
  const stat = fs.statSync(file);
  visit(file, stat);
  if (stat.isDirectory()) for (const name of fs.readdirSync(file)) walk(path.join(file, name), visit);
}

function newestInput(root) {
  let newest = 0;
  for (const input of INPUTS) {
    const file = path.join(root, input);
    if (fs.existsSync(file)) walk(file, (_, stat) => (newest = Math.max(newest, stat.mtimeMs)));
  }
  return newest;
}

/** Whether dist/ is missing or older than any input. */
export function isStale(root = ROOT, outDir = path.join(root, 'dist')) {
  const stamp = path.join(outDir, STAMP);
  if (!fs.existsSync(stamp)) return true;
  return newestInput(root) > fs.statSync(stamp).mtimeMs;
}

/** Writes `outDir` from scratch: it is built beside it and swapped in, so no reader ever sees half a build. */
export async function build(root = ROOT, outDir = path.join(root, 'dist')) {
  const { build: esbuild } = await import('esbuild');
  const started = new Date();
  const staging = `${outDir}.staging-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  const entryPoints = [];
  for (const dir of ['src', 'prisma/generated'])
    walk(path.join(root, dir), (file, stat) => {
      if (stat.isFile() && file.endsWith('.ts') && !file.endsWith('.d.ts')) entryPoints.push(file);
    });
  // One output file per source file (no bundling): import.meta.dirname and relative imports stay as in src/.
  await esbuild({
    entryPoints,
    outdir: staging,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });
  for (const item of COPIED)
    fs.cpSync(path.join(root, item), path.join(staging, item), {
      recursive: true,
      filter: (file) => !file.endsWith('.ts'),
    });
  await buildDashboard(staging, root);
  const stamp = path.join(staging, STAMP);
  fs.writeFileSync(stamp, `${started.toISOString()}\n`);
  // stamped with the time the build began: a source edited while it ran is newer, so the next start rebuilds
  fs.utimesSync(stamp, started, started);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.renameSync(staging, outDir);
}

/**
 * Builds when stale, one builder at a time: two processes started together on a fresh clone (two `npx scribe`) must
 * not write the same dist/; the second waits and then finds it fresh.
 */
export async function buildIfStale(root = ROOT, outDir = path.join(root, 'dist')) {
  if (!isStale(root, outDir)) return false;
  const lock = `${outDir}.lock`;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx'));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      // a builder that died leaves its lock behind; no build takes anywhere near this long
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) fs.rmSync(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    if (!isStale(root, outDir)) return false;
    await build(root, outDir);
    return true;
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const started = Date.now();
  if (!process.argv.includes('--if-stale')) await build();
  else if (!(await buildIfStale())) process.exit(0);
  process.stderr.write(`built dist/ in ${Date.now() - started} ms\n`);
}
