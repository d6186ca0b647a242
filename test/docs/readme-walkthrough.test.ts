import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { edit, reply, text } from '../support/anthropic-server.js';
import { DOCS, forTask, INSTALLATION_ID } from '../support/e2e-harness.js';
import { startScribeProcess, type ScribeProcess } from '../support/scribe-process.js';
import { startStandIns, type StandIns } from '../support/stand-ins.js';
import {
  outputsByBlock,
  walkthroughBlocks,
  walkthroughScript,
  type WalkthroughBlock,
} from '../../scripts/docs/readme-walkthrough.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const exec = promisify(execFile);

describe('reading the walkthrough out of a README', () => {
  const readme = [
    'Intro `code`.',
    '<!-- first-hour:one -->',
    '```sh',
    'A=1',
    '```',
    'It prints `1`:',
    '```json',
    '{"a":1}',
    '```',
    '```sh',
    'echo not marked',
    '```',
    '<!-- first-hour:two -->',
    '```sh',
    'echo "$A"',
    '```',
    '```html',
    '<p>not what it prints</p>',
    '```',
    '',
  ].join('\n');

  it('takes the marked shell blocks in order, with the JSON shown right after one', () => {
    expect(walkthroughBlocks(readme)).toEqual([
      { name: 'one', script: 'A=1', shows: '{"a":1}' },
      { name: 'two', script: 'echo "$A"' },
    ]);
  });

  it('runs them in one shell and splits the output by block', async () => {
    const { stdout } = await exec('bash', ['-c', walkthroughScript(walkthroughBlocks(readme))]);
    expect(outputsByBlock(stdout)).toEqual(
      new Map([
        ['one', ''],
        ['two', '1'],
      ]),
    );
  });
});

// The README's first hour, run as written: its CLI and curl blocks against a Scribe started on SQLite, with the
// GitHub host and the model stand-ins in place of github.com and Anthropic. Only the server's address differs.
describe("the README's first hour", () => {
  let standIns: StandIns;
  let scribe: ScribeProcess;
  let blocks: WalkthroughBlock[];
  let outputs: Map<string, string>;

  beforeAll(async () => {
    standIns = await startStandIns('sqlite');
    const { github, anthropic } = standIns;
    github.createRepository('acme/docs', DOCS, 'main');
    github.addInstallation(INSTALLATION_ID, ['acme/docs']);
    anthropic.script(
      [
        reply([
          edit({
            command: 'str_replace',
            path: 'guide/start.md',
            old_str: 'Install the CLI.\n',
            new_str: 'Install the CLI.\n\n## Troubleshooting\n\nRun `acme doctor`.\n',
          }),
        ]),
        reply([text('Title: Add Troubleshooting\n\nAdded a Troubleshooting section.')]),
      ],
      forTask('Add a Troubleshooting section to the quickstart'),
    );
    scribe = await startScribeProcess({ env: standIns.env() });

    blocks = walkthroughBlocks(README);
    const script = walkthroughScript(blocks).replace('SCRIBE=http://localhost:3000', `SCRIBE=${scribe.url}`);
    const { stdout } = await exec('bash', ['-c', script], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: standIns.database.target.url },
      timeout: 90_000,
    });
    outputs = outputsByBlock(stdout);
  }, 120_000);

  afterAll(async () => {
    await scribe?.kill();
    await standIns?.close();
  });

  it('starts with `npm ci && npm start` on port 3000, the address the blocks use', () => {
    expect(README).toContain('```sh\nnpm ci && npm start\n```');
    expect(README).toContain('\nSCRIBE=http://localhost:3000\n');
    const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(scripts.start).toBeDefined();
    expect(scripts.test).toBeDefined();
  });

  it('has the project, first view and first job steps, the same in docs/getting-started.md', () => {
    expect(blocks.map((b) => b.name)).toEqual(['project', 'view', 'job']);
    const guide = fs.readFileSync(path.join(ROOT, 'docs/getting-started.md'), 'utf8');
    for (const block of blocks) expect(guide).toContain(`\n\`\`\`sh\n${block.script}\n\`\`\`\n`);
    // what the first view prints, which the test compares with the server's answer below
    expect(guide).toContain(`\n\`\`\`json\n${blocks.find((b) => b.name === 'view')?.shows}\n\`\`\`\n`);
  });

  it('adds a project and prints its id and a key', () => {
    expect(outputs.get('project')).toMatch(/^project: prj_[0-9A-Za-z]{20} {2}key: scribe_sk_[0-9A-Za-z]{40}$/);
  });

  it('counts the first page view in the export, as the README shows', () => {
    const shown = blocks.find((b) => b.name === 'view')?.shows;
    expect(shown).toBeDefined();
    expect(JSON.parse(outputs.get('view')!)).toEqual(JSON.parse(shown!));
  });

  it('serves the dashboard the README sends the reader to', async () => {
    const res = await fetch(`${scribe.url}/dashboard`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('creates the first job with curl and ends with the pull request the App opened', () => {
    const job = JSON.parse(outputs.get('job')!.split('\n').at(-1)!);
    const [pull] = standIns.github.pulls;
    expect(job).toMatchObject({ status: 'completed', error: null, prLink: pull.html_url });
    expect(pull).toMatchObject({ base: 'main', head: job.source.ref, title: 'Add Troubleshooting' });
    expect(standIns.github.readFile('acme/docs', job.source.ref, 'guide/start.md')).toContain('## Troubleshooting');
  });
});
