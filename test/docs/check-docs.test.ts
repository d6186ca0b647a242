import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { docsProblems } from '../../scripts/docs/check-docs.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe("Scribe's own docs, checked as its agent checks a docs repository", () => {
  it('have no finding: every page parses and is in the navigation, every link, anchor and spec resolves', async () => {
    expect(await docsProblems(ROOT)).toEqual([]);
  });
});

describe('the docs check on a copy with a fault', () => {
  let copy: string;
  const write = (file: string, text: string) => fs.writeFileSync(path.join(copy, file), text);
  const read = (file: string) => fs.readFileSync(path.join(copy, file), 'utf8');
  const append = (file: string, text: string) => write(file, `${read(file)}${text}`);

  beforeEach(() => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-docs-'));
    fs.cpSync(path.join(ROOT, 'docs'), path.join(copy, 'docs'), { recursive: true });
    for (const file of ['README.md', 'app.yml']) fs.copyFileSync(path.join(ROOT, file), path.join(copy, file));
  });
  afterEach(() => {
    fs.rmSync(copy, { recursive: true, force: true });
  });

  it('finds nothing on the unchanged copy', async () => {
    expect(await docsProblems(copy)).toEqual([]);
  });

  it('reports a link to a page that does not exist, with its line', async () => {
    const lines = read('docs/operations.md').split('\n').length;
    append('docs/operations.md', '\nSee [the missing page](no-such-page.md).\n');
    expect(await docsProblems(copy)).toEqual([
      `docs/operations.md:${lines + 1}: the link "no-such-page.md" points at a file that does not exist.`,
    ]);
  });

  it('reports a link to a heading the target page does not have', async () => {
    append('docs/security.md', '\nSee [the secret](configuration.md#no-such-variable).\n');
    const problems = await docsProblems(copy);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^docs\/security\.md:\d+: the link "configuration\.md#no-such-variable" points at a heading or anchor docs\/configuration\.md does not have\.$/,
    );
  });

  it('reports a page that does not parse as MDX, as Mintlify builds it', async () => {
    append('docs/dashboard.md', '\nPaste the key for {project id}.\n');
    const problems = await docsProblems(copy);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^docs\/dashboard\.md no longer parses as MDX/);
  });

  it('reports a page no navigation entry lists, and an entry without a page', async () => {
    write('docs/unlisted.md', '---\ntitle: "Unlisted"\n---\n\nA page nobody listed.\n');
    const config = JSON.parse(read('docs/docs.json'));
    config.navigation.groups[0].pages.push('missing-page');
    write('docs/docs.json', JSON.stringify(config, null, 2));
    expect(await docsProblems(copy)).toEqual([
      'docs/docs.json: the navigation entry "missing-page" has no page (expected docs/missing-page.mdx or docs/missing-page.md).',
      'docs/unlisted.md: no navigation entry in docs/docs.json lists this page.',
    ]);
  });

  it('reports an OpenAPI spec the navigation names that does not exist', async () => {
    fs.rmSync(path.join(copy, 'docs/openapi.json'));
    const problems = await docsProblems(copy);
    expect(problems).toContain(
      'docs/docs.json: the OpenAPI spec "openapi.json" does not exist (expected docs/openapi.json).',
    );
  });

  it('reports a docs.json value the Mintlify build refuses', async () => {
    const config = JSON.parse(read('docs/docs.json'));
    config.theme = 'midnight';
    write('docs/docs.json', JSON.stringify(config, null, 2));
    const problems = await docsProblems(copy);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^docs\/docs\.json: "theme" is "midnight"; it must be one of /);
  });

  it("reports README links that leave the repository or miss a docs page's heading", async () => {
    append('README.md', '\n[contract](../spec/api.md) · [flags](docs/cli.md#scribe-frobnicate)\n');
    const problems = (await docsProblems(copy)).filter((p) => p.startsWith('README.md'));
    expect(problems).toEqual([
      expect.stringMatching(/^README\.md:\d+: the link "\.\.\/spec\/api\.md" leads outside the repository\.$/),
      expect.stringMatching(
        /^README\.md:\d+: the link "docs\/cli\.md#scribe-frobnicate" points at a heading docs\/cli\.md does not have\.$/,
      ),
    ]);
  });

  it('reports a generated page edited by hand', async () => {
    append('docs/configuration.md', '\n| `SCRIBE_IMAGINARY` | — | `1` | Not read by anything. |\n');
    expect(await docsProblems(copy)).toContain(
      'docs/configuration.md differs from what the code gives: run npm run docs:generate',
    );
  });
});
