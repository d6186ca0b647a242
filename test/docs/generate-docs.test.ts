import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  apiReferencePage,
  cliPage,
  configurationPage,
  generatedPages,
  mdxSafe,
  openApiDocument,
  stalePages,
} from '../../scripts/docs/generate-docs.js';
import { configReference, loadConfig } from '../../src/config.js';
import { commands } from '../../src/cli/run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the generated docs pages', () => {
  it('match what the code gives now (npm run docs:generate rewrites them)', () => {
    expect(stalePages(ROOT)).toEqual([]);
  });

  it('are found stale when a page differs from the code, or is missing', () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-generated-'));
    try {
      const pages = generatedPages();
      for (const [file, text] of pages) {
        fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
        fs.writeFileSync(path.join(copy, file), text);
      }
      expect(stalePages(copy, pages)).toEqual([]);
      fs.writeFileSync(
        path.join(copy, 'docs/cli.md'),
        pages.get('docs/cli.md')!.replace('scribe key list', 'scribe keys'),
      );
      fs.rmSync(path.join(copy, 'docs/openapi.json'));
      expect(stalePages(copy, pages)).toEqual(['docs/cli.md', 'docs/openapi.json']);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('the configuration reference', () => {
  const source = fs.readFileSync(path.join(ROOT, 'src/config.ts'), 'utf8');
  const schemaBlock = source.slice(
    source.indexOf('const schemas = {'),
    source.indexOf('\n};', source.indexOf('const schemas = {')),
  );
  const parsed = [...schemaBlock.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);

  it('documents every variable src/config.ts parses, once, DATABASE_URL included', () => {
    const names = configReference().map((v) => v.name);
    expect(parsed.length).toBeGreaterThan(40);
    expect(names.sort()).toEqual(['DATABASE_URL', ...parsed].sort());
  });

  it("shows each schema's own default, as loadConfig applies it", () => {
    const byName = new Map(configReference().map((v) => [v.name, v]));
    const config = loadConfig({});
    expect(byName.get('PORT')?.default).toBe(`\`${config.port}\``);
    expect(byName.get('SCRIBE_JOB_CONCURRENCY')?.default).toBe(`\`${config.jobs.concurrency}\``);
    expect(byName.get('LOG_LEVEL')?.default).toBe(`\`${config.logLevel}\``);
    expect(byName.get('SCRIBE_TRACKER_COMMIT_MS')?.default).toBe(`\`${config.trackerCommit.maxDelayMs}\``);
    expect(byName.get('APP_ID')?.default).toBe('—');
    expect(byName.get('SCRIBE_MODEL')?.default).toBe(`\`${config.jobs.models[0]}\``);
  });

  it('puts every variable in one table row with its example and meaning', () => {
    const page = configurationPage();
    for (const v of configReference()) {
      const row = page.split('\n').find((line) => line.startsWith(`| \`${v.name}\` |`));
      expect(row).toBeDefined();
      expect(row).toContain(v.default.replace(/\|/g, '\\|'));
    }
    expect(page).toContain('| `PORT` | `3000` | `8080` | HTTP port (`0` picks a free one). |');
  });
});

describe('the CLI reference', () => {
  it("has a section per command with its usage line and summary, from the CLI's own text", () => {
    const page = cliPage();
    for (const [name, command] of Object.entries(commands)) {
      expect(page).toContain(
        `## scribe ${name}\n\n\`\`\`text\nscribe ${command.usage}\n\`\`\`\n\n${mdxSafe(command.summary)}\n`,
      );
    }
  });
});

describe('the API reference', () => {
  it('has a section per operation of the OpenAPI document the server serves', () => {
    const document = openApiDocument();
    const page = apiReferencePage(document);
    const operations = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.keys(methods as object).map((method) => `### \`${method.toUpperCase()} ${route}\``),
    );
    expect(operations).toContain('### `POST /v2/agent/{projectId}/job`');
    for (const heading of operations) expect(page).toContain(`\n${heading}\n`);
    expect(page.match(/^### /gm)).toHaveLength(operations.length);
  });
});

describe('text that reads the same on GitHub and as MDX', () => {
  it('escapes braces and tags outside code spans and leaves code alone', () => {
    expect(mdxSafe('a {b} <c> `d {e} <f>`')).toBe('a \\{b\\} &lt;c> `d {e} <f>`');
  });
});
