/**
 * Storage per page view (issue 20 §5), on its own: ingests the synthetic site (bench/site.ts) through a benchmark
 * server, folds it, and prints bench/storage-report.ts's table (bench/analytics.ts prints the same after each size);
 * with --index-variants, also other layouts of the raw events' time index (bench/index-variants.ts).
 *   npm run bench:storage                                   # 1M page views, both databases
 *   npm run bench:storage -- --sizes 1000000,10000000 --db sqlite
 *   npm run bench:storage -- --sizes 1000000 --index-variants   # also try other layouts of the raw events' index
 */
import type { DatabaseTarget } from '../src/db/database-url.js';
import { STORAGE_HEADER, storageTable } from './storage-report.js';
import { indexVariants, VARIANTS_HEADER } from './index-variants.js';
import { DAY, ingestViews } from './site.js';
import { createProject, createDatabase, startServer } from './bench-server.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

async function main() {
  const sizes = arg('sizes', '1000000').split(',').map(Number);
  const providers = arg('db', arg('providers', 'sqlite,postgresql')).split(',') as DatabaseTarget['provider'][];
  const variants = process.argv.includes('--index-variants');
  const tables: string[] = [];
  const variantRows: string[] = [];
  for (const size of sizes) {
    for (const provider of providers) {
      const log = (msg: string) => console.error(`[${provider} ${size.toLocaleString('en')}] ${msg}`);
      const { target, drop } = await createDatabase(provider, 'storage');
      try {
        const { projectId, key } = await createProject(target, `bench/storage-${provider}`);
        const { child, url } = await startServer(target);
        const endDay = Math.floor(Date.now() / DAY);
        try {
          const { accepted, seconds } = await ingestViews({ url, projectId, key, size, endDay });
          log(`ingested ${accepted} in ${seconds.toFixed(1)} s`);
          // the export folds whatever the background fold has not yet
          const folded = await fetch(`${url}/v1/analytics/${projectId}/visitors?limit=1`, {
            headers: { authorization: `Bearer ${key}` },
          });
          if (folded.status !== 200) throw new Error(`export failed: ${folded.status}`);
        } finally {
          child.kill('SIGTERM');
          await new Promise((r) => child.once('exit', r));
        }
        tables.push(await storageTable({ target, provider, views: size }));
        if (variants) {
          variantRows.push(await indexVariants({ target, projectId, views: size, endDay, log }));
        }
      } finally {
        await drop();
      }
    }
  }
  console.log(`\n${STORAGE_HEADER}\n${tables.join('\n')}`);
  if (variantRows.length) {
    console.log(`\n${VARIANTS_HEADER}\n${variantRows.join('\n')}`);
  }
}

await main();
