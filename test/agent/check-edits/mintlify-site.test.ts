import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkEdits } from '../../../src/agent/check-edits.js';
import { edit, reply, startAnthropicStandIn, text, type AnthropicStandIn } from '../../support/anthropic-server.js';
import { runAgainst, snapshot, systemOf } from '../../support/agent-harness.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/agent/mintlify-site');

let standIn: AnthropicStandIn;
let dir: string;
beforeAll(async () => {
  standIn = await startAnthropicStandIn();
});
afterAll(() => standIn.close());
beforeEach(async () => {
  standIn.reset();
  dir = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'scribe-mintlify-')), 'repo');
  await fs.cp(FIXTURE, dir, { recursive: true });
});
afterEach(() => fs.rm(path.dirname(dir), { recursive: true, force: true }));

const PAGE =
  '---\ntitle: "Troubleshooting"\ndescription: "Fix common problems"\n---\n\nIf `acme publish` fails, check the [configuration](/guides/configuration).\n';

describe('a realistic Mintlify site', () => {
  it('passes the checks as it is (JSX cards, tables, images, root-relative and relative links)', async () => {
    const everything = new Map<string, string | null>(Object.keys(await snapshot(dir)).map((file) => [file, null]));
    expect(await checkEdits({ workspaceDir: dir, originals: everything })).toEqual([]);
  });

  it('adds a page and its navigation entry, repairing a wrong entry, with exactly the intended diff', async () => {
    const before = await snapshot(dir);
    standIn.script([
      reply([edit({ command: 'view', path: 'docs.json' })]),
      reply([
        edit({ command: 'create', path: 'guides/troubleshooting.mdx', file_text: PAGE }),
        edit({
          command: 'str_replace',
          path: 'docs.json',
          old_str: '"guides/deployment"]',
          new_str: '"guides/deployment", "guides/troubleshoot"]',
        }),
      ]),
      reply([
        text('Title: Add a troubleshooting guide\n\nAdded guides/troubleshooting.mdx and listed it under Guides.'),
      ]),
      reply([
        edit({
          command: 'str_replace',
          path: 'docs.json',
          old_str: '"guides/troubleshoot"',
          new_str: '"guides/troubleshooting"',
        }),
      ]),
      reply([
        text('Title: Add a troubleshooting guide\n\nAdded guides/troubleshooting.mdx and listed it under Guides.'),
      ]),
    ]);
    const run = await runAgainst({
      standIn,
      workspaceDir: dir,
      instructions: ['Add a troubleshooting page to the guides.'],
    });
    expect(run.error).toBeUndefined();
    expect(run.events.filter((e) => e.type === 'check')).toEqual([
      {
        type: 'check',
        problems: [
          'docs.json: the navigation entry "guides/troubleshoot" has no page (expected guides/troubleshoot.mdx or guides/troubleshoot.md).',
        ],
      },
      { type: 'check', problems: [] },
    ]);
    expect(await snapshot(dir)).toEqual({
      ...before,
      'guides/troubleshooting.mdx': PAGE,
      'docs.json': before['docs.json'].replace(
        '"guides/deployment"]',
        '"guides/deployment", "guides/troubleshooting"]',
      ),
    });
    expect(run.result).toMatchObject({ title: 'Add a troubleshooting guide', turns: 5 });
    const system = systemOf(standIn.requests[0]);
    expect(system).toContain('index\nquickstart\nguides/configuration\nguides/deployment');
    expect(system).toContain('<repository_data source="AGENTS.md">\n# Writing rules for agents');
    expect(system).toContain('description (4/4), title (4/4)');
  });
});
