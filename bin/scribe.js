#!/usr/bin/env node
// `npx scribe …`: the operator CLI, run from the compiled dist/. In a checkout (src/ beside it) dist/ is built first
// when missing or older than the sources; an image ships dist/ alone and runs it as it is.
import fs from 'node:fs';

if (fs.existsSync(new URL('../src', import.meta.url))) {
  const { buildIfStale } = await import('../scripts/build.js');
  await buildIfStale();
}
await import('../dist/src/cli/main.js');
