/**
 * tsx bench/check-edits.ts (the last step of npm run bench) — the agent's edit checks (checkEdits) on a
 * generated 2,000-page Mintlify site.
 *
 * The site is shaped like a large real one: navigation split into one `$ref` file per section, 300 redirects
 * (and a wildcard), a snippet imported by every section's index page, headings linked by anchor across pages,
 * and a README and .mintignore the checks must skip. Two edits are timed, each as the agent leaves them:
 *
 * 1. a one-page edit (a paragraph with new links, one to another page's heading, one to a redirect source);
 * 2. a page deletion with its navigation entry removed (every page is then searched for links to it; the two on
 *    the page before it are reported).
 *
 * Targets: the edit under 100 ms, the deletion under 1 s. Each is run --runs times (default 7) in one process;
 * the first run (cold: the MDX compiler loads) and the median are reported. Flags: --runs N, --pages N.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkEdits } from '../src/agent/check-edits.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = flag('--runs', 7);
const PAGES = flag('--pages', 2000);
const PER_SECTION = 100;
const SECTIONS = Math.ceil(PAGES / PER_SECTION);
const TARGETS = { edit: 100, deletion: 1000 };

const pageId = (n: number) => `s${Math.floor(n / PER_SECTION)}/page-${n}`;

function page(n: number): string {
  const section = Math.floor(n / PER_SECTION);
  const next = (n + 1) % PAGES;
  const snippet = n % PER_SECTION === 0 ? "import Note from '/snippets/note.mdx';\n\n<Note />\n\n" : '';
  return `---
title: "Page ${n}"
description: "Section ${section}, page ${n}"
---

${snippet}Scribe keeps documentation current. ${'Every page says a little about the product. '.repeat(8)}

## Overview

Read [the next page](/${pageId(next)}#configure-section-${Math.floor(next / PER_SECTION)}) or the [section start](/${pageId(section * PER_SECTION)}).

<CardGroup cols={2}>
  <Card title="Next" href="/${pageId(next)}">Continue.</Card>
  <Card title="Old address" href="/old/${pageId(n)}">Still works through a redirect.</Card>
</CardGroup>

## Configure section ${section}

| Setting | Default |
| ------- | ------- |
| \`mode\` | \`fast\` |

\`\`\`bash
acme configure --page ${n}
\`\`\`

## Examples

<Accordion title="Example ${n}">
  Run \`acme run ${n}\`.
</Accordion>
`;
}

function site(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let n = 0; n < PAGES; n++) files[`${pageId(n)}.mdx`] = page(n);
  for (let s = 0; s < SECTIONS; s++) {
    const pages = Array.from({ length: PER_SECTION }, (_, i) => s * PER_SECTION + i)
      .filter((n) => n < PAGES)
      .map(pageId);
    files[`nav/s${s}.json`] =
      `${JSON.stringify({ tab: `Section ${s}`, groups: [{ group: `Section ${s}`, root: pages[0], pages: pages.slice(1) }] }, null, 2)}\n`;
  }
  const redirects = Array.from({ length: 300 }, (_, i) => ({
    source: `/old/${pageId(i * 6)}`,
    destination: `/${pageId(i * 6)}`,
  }));
  files['docs.json'] = `${JSON.stringify(
    {
      $schema: 'https://mintlify.com/docs.json',
      theme: 'mint',
      name: 'Bench',
      colors: { primary: '#0D9373' },
      navigation: { tabs: Array.from({ length: SECTIONS }, (_, s) => ({ $ref: `./nav/s${s}.json` })) },
      redirects: [...redirects, { source: '/old/:slug*', destination: '/:slug*' }],
    },
    null,
    2,
  )}\n`;
  files['snippets/note.mdx'] = '<Note>Shared note, see [page 0](/s0/page-0#overview).</Note>\n';
  files['.mintignore'] = 'drafts/\n';
  files['README.md'] = '# Bench site\n\n<!-- not MDX, and never built -->\n';
  return files;
}

function writeSite(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Scenario {
  name: keyof typeof TARGETS;
  /** Make the edit; returns the originals the agent's tools would have recorded. */
  apply(dir: string, files: Record<string, string>): Map<string, string | null>;
  /** Undo it, so the next run starts from the same site. */
  undo(dir: string, files: Record<string, string>): void;
}

const EDITED = `${pageId(500)}.mdx`;
const DELETED = `${pageId(750)}.mdx`;
const DELETED_NAV = `nav/s7.json`;

const scenarios: Scenario[] = [
  {
    name: 'edit',
    apply: (dir, files) => {
      fs.appendFileSync(
        path.join(dir, EDITED),
        `\nSee [configuring page 501](/${pageId(501)}#configure-section-5) and [the old address of page 6](/old/${pageId(6)}).\n`,
      );
      return new Map([[EDITED, files[EDITED]]]);
    },
    undo: (dir, files) => fs.writeFileSync(path.join(dir, EDITED), files[EDITED]),
  },
  {
    name: 'deletion',
    apply: (dir, files) => {
      fs.rmSync(path.join(dir, DELETED));
      const nav = JSON.parse(files[DELETED_NAV]) as { groups: { pages: string[] }[] };
      nav.groups[0].pages = nav.groups[0].pages.filter((p) => p !== pageId(750));
      fs.writeFileSync(path.join(dir, DELETED_NAV), `${JSON.stringify(nav, null, 2)}\n`);
      return new Map([
        [DELETED, files[DELETED]],
        [DELETED_NAV, files[DELETED_NAV]],
      ]);
    },
    undo: (dir, files) => {
      fs.writeFileSync(path.join(dir, DELETED), files[DELETED]);
      fs.writeFileSync(path.join(dir, DELETED_NAV), files[DELETED_NAV]);
    },
  },
];

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-bench-checks-'));
  const files = site();
  writeSite(dir, files);
  console.log(
    `checkEdits on a generated Mintlify site: ${PAGES} pages, ${SECTIONS} $ref navigation files, 301 redirects; ${RUNS} runs each`,
  );
  const results: Record<string, unknown> = { pages: PAGES };
  let over = false;
  try {
    for (const scenario of scenarios) {
      const times: number[] = [];
      let problems: string[] = [];
      for (let run = 0; run < RUNS; run++) {
        const originals = scenario.apply(dir, files);
        const started = performance.now();
        problems = await checkEdits({ workspaceDir: dir, originals });
        times.push(performance.now() - started);
        scenario.undo(dir, files);
      }
      const target = TARGETS[scenario.name];
      const typical = median(times);
      over ||= typical > target;
      console.log(
        `  ${scenario.name.padEnd(8)} median ${typical.toFixed(1)} ms (first run ${times[0].toFixed(1)} ms) — target ${target} ms, ${(typical / target).toFixed(2)}× the target; ${problems.length} problem(s): ${problems.join(' | ') || 'none'}`,
      );
      results[scenario.name] = {
        medianMs: Number(typical.toFixed(1)),
        firstMs: Number(times[0].toFixed(1)),
        targetMs: target,
        ratio: Number((typical / target).toFixed(2)),
        problems: problems.length,
      };
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n${JSON.stringify({ bench: 'check-edits', ...results })}`);
  if (over) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
