/**
 * npm run bench:docs-review — a source pull request's webhook to its completed `Scribe docs` check run, no model.
 *
 * A synthetic Mintlify docs site of 1,000 pages (each documenting a CLI flag, an environment variable, an HTTP route
 * and an exported function) and, per sample, a pull request of 200 changed TypeScript files and 5,000 changed lines
 * (each file rewritten in 25 lines: 12 removed, 13 added, one in four renaming an identifier the docs mention).
 * The real service runs in this process against the local GitHub host (no write pacing, as on a host without
 * secondary rate limits) and a throwaway database; the time is from the signed delivery's POST to the check run
 * completed on the host. Each run reviews two pull requests: one right after a new docs commit (cold: the docs are
 * fetched and read) and one against the same docs commit (warm: this process read it already). Prints p50 and p95 of
 * each. Flags: --runs N (default 7), --pages N (default 1000), --files N (default 200), --postgres.
 */
import { examplePayload, pullRequestPayload, startGitHubE2E } from '../test/support/github-harness.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const RUNS = Number(arg('runs', '7'));
const PAGES = Number(arg('pages', '1000'));
const FILES = Number(arg('files', '200'));
const PROVIDER = process.argv.includes('--postgres') ? 'postgresql' : 'sqlite';
const INSTALLATION = 77;
const DOCS_REPO = 'acme/docs';
const SOURCE_REPO = 'acme/api';

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

function docsSite(): Record<string, string> {
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({ name: 'Bench', navigation: [{ group: 'Guides', pages: ['index'] }] }),
    '.scribe/automations.yml': `automations:\n  - id: review-api\n    on: { pull_request: { repository: ${SOURCE_REPO} } }\n    prompt: Keep the docs true.\n`,
    'index.mdx': '# Bench docs\n',
  };
  for (let i = 0; i < PAGES; i++) {
    const n = String(i).padStart(4, '0');
    const lines = [
      `# Module ${n}`,
      '',
      `Module ${n} syncs records. Run \`acme sync --batch-size-${n}\` to set the batch size.`,
      '',
      `Set \`ACME_MODULE_${n}_TIMEOUT\` to change how long a call waits.`,
      '',
      '```bash',
      `curl https://api.acme.test/v1/modules/m${n}/records`,
      '```',
      '',
      `Call \`syncModule${n}()\` from your code to start a sync by hand.`,
      ...Array.from({ length: 20 }, (_, k) => `Paragraph ${k} of module ${n}: prose about behaviour and limits.`),
    ];
    files[`guides/module-${n}.mdx`] = `${lines.join('\n')}\n`;
  }
  return files;
}

/**
 * One source file of module `i`, version `v` (0: the base, 1: the pull request's head): the head rewrites 25 lines
 * of it, and in one file of four renames the exported function the docs mention.
 */
function sourceFile(i: number, v: 0 | 1, renames: boolean): string {
  const n = String(i).padStart(4, '0');
  const name = v === 1 && renames ? `startModule${n}` : `syncModule${n}`;
  const lines = [
    `export const flag${i} = '--batch-size-${n}';`,
    `export const timeoutVar${i} = 'ACME_MODULE_${n}_TIMEOUT';`,
    `export function ${name}(): void {}`,
  ];
  const changed = v === 1 ? (renames ? 11 : 12) : 0;
  for (let k = 0; k < 22; k++) lines.push(`const value${k} = ${k < changed ? k * 2 + 1 : k}; // setting ${k}`);
  if (v === 1) lines.push(`// revised in the pull request`);
  return `${lines.join('\n')}\n`;
}

async function main() {
  const e2e = await startGitHubE2E(PROVIDER, { ANTHROPIC_API_KEY: '', LOG_LEVEL: 'info' });
  try {
    const { github } = e2e;
    github.createRepository(DOCS_REPO, docsSite());
    const base: Record<string, string> = { 'README.md': '# api\n' };
    for (let i = 0; i < FILES; i++) base[`src/module-${i}.ts`] = sourceFile(i, 0, false);
    github.createRepository(SOURCE_REPO, base);
    github.addInstallation(INSTALLATION, [DOCS_REPO, SOURCE_REPO]);
    const installed = examplePayload('installation', 'created');
    installed.installation.id = INSTALLATION;
    installed.repositories = [{ id: 1, node_id: 'R', name: 'docs', full_name: DOCS_REPO, private: true }];
    await e2e.send('installation', installed);

    const samples: Record<'cold' | 'warm', number[]> = { cold: [], warm: [] };
    let changedLines = 0;
    for (let sample = 0; sample <= RUNS * 2 + 1; sample++) {
      const run = sample >> 1;
      const kind = sample % 2 === 0 ? 'cold' : 'warm';
      if (kind === 'cold')
        github.commitFiles(DOCS_REPO, 'main', { 'index.mdx': `# Bench docs ${run}\n` }, `Docs ${run}`);
      const branch = `bench-${sample}`;
      github.createBranch(SOURCE_REPO, branch, 'main');
      // a file of its own, so no two samples share a head commit
      const head: Record<string, string> = { 'src/sample.ts': `export const sample = ${sample};\n` };
      for (let i = 0; i < FILES; i++) head[`src/module-${i}.ts`] = sourceFile(i, 1, i % 4 === run % 4);
      github.commitFiles(SOURCE_REPO, branch, head, `Bench change ${run}`);
      const pr = github.openPullRequest(SOURCE_REPO, { head: branch });
      const pull = github.pullJson(SOURCE_REPO, pr.number);
      const payload = pullRequestPayload({
        action: 'opened',
        repository: SOURCE_REPO,
        installationId: INSTALLATION,
        pull,
      });
      const started = performance.now();
      const { status, id } = await e2e.deliver('pull_request', payload);
      if (status !== 200) throw new Error(`delivery answered ${status}`);
      for (;;) {
        const check = github.checkRuns.find((c) => c.head_sha === pull.head.sha && c.status === 'completed');
        if (check) {
          const ms = performance.now() - started;
          // the first run warms the process (module loading, first clone): not a sample
          if (run > 0) samples[kind].push(ms);
          changedLines = github
            .diff(SOURCE_REPO, 'main', branch, ['--numstat'])
            .split('\n')
            .filter(Boolean)
            .reduce((sum, line) => sum + Number(line.split('\t')[0]) + Number(line.split('\t')[1]), 0);
          const done = e2e.logs.findLast((l) => l.msg === 'docs review done' && l.headSha === pull.head.sha);
          const stages = Object.entries(done?.timings ?? {})
            .map(([stage, t]) => `${stage.replace(/Ms$/, '')} ${Number(t).toFixed(0)}`)
            .join(', ');
          process.stdout.write(
            `run ${run} ${kind}${run === 0 ? ' (warm-up)' : ''}: ${ms.toFixed(0)} ms (${stages} ms), ${check.conclusion}: ${check.output.title}\n`,
          );
          break;
        }
        const row = await e2e.settled(id).catch(() => null);
        if (row && row.status !== 'done') throw new Error(`delivery ${row.status}: ${row.outcome}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    const figures = (xs: number[]) =>
      `p50 ${(quantile(xs, 0.5) / 1000).toFixed(2)} s, p95 ${(quantile(xs, 0.95) / 1000).toFixed(2)} s`;
    process.stdout.write(
      `docs review, ${PROVIDER}, ${PAGES} pages, ${FILES} files / ${changedLines} changed lines, no model, ${RUNS} runs: ` +
        `cold (new docs commit) ${figures(samples.cold)}; warm (docs commit read before) ${figures(samples.warm)}\n`,
    );
  } finally {
    await e2e.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
