import fs from 'node:fs/promises';
import path from 'node:path';
import { gatherRepositoryFacts } from '../../src/agent/gather-repository-facts.js';
import { buildSystemPrompt } from '../../src/agent/system-prompt.js';
import { makeWorkspace } from '../support/agent-harness.js';

describe("the repository's instruction files", () => {
  it('reads .mintlify/AGENTS.md beside AGENTS.md and .scribe/instructions.md, as repository data, never as a page', async () => {
    const ws = await makeWorkspace({
      'docs.json': JSON.stringify({ name: 'Acme', navigation: { pages: ['index'] } }),
      'index.mdx': '# Home\n',
      '.scribe/instructions.md': 'Be brief.\n',
      'AGENTS.md': 'Use sentence case.\n',
      '.mintlify/AGENTS.md': 'Call the product Acme Cloud.\n',
    });
    try {
      const facts = await gatherRepositoryFacts(ws.dir);
      expect(facts.instructionFiles).toEqual([
        { path: '.scribe/instructions.md', text: 'Be brief.\n', truncated: false },
        { path: 'AGENTS.md', text: 'Use sentence case.\n', truncated: false },
        { path: '.mintlify/AGENTS.md', text: 'Call the product Acme Cloud.\n', truncated: false },
      ]);
      expect(facts.pageCounts).toEqual({ md: 0, mdx: 1 });
      expect(buildSystemPrompt(facts)).toContain(
        '<repository_data source=".mintlify/AGENTS.md">\nCall the product Acme Cloud.\n',
      );
    } finally {
      await ws.cleanup();
    }
  });

  it('follows the same rules for .mintlify/AGENTS.md: empty is skipped, a symlink out of the workspace is not read, long is shortened', async () => {
    const ws = await makeWorkspace({ 'README.md': '# Hi\n', 'AGENTS.md': '   \n' });
    try {
      await fs.mkdir(path.join(ws.dir, '.mintlify'));
      await fs.symlink(ws.outside, path.join(ws.dir, '.mintlify', 'AGENTS.md'));
      expect((await gatherRepositoryFacts(ws.dir)).instructionFiles).toEqual([]);
      await fs.rm(path.join(ws.dir, '.mintlify', 'AGENTS.md'));
      await fs.writeFile(path.join(ws.dir, '.mintlify', 'AGENTS.md'), 'x'.repeat(20_000));
      const [file] = (await gatherRepositoryFacts(ws.dir)).instructionFiles;
      expect(file).toMatchObject({ path: '.mintlify/AGENTS.md', truncated: true });
      expect(file.text.length).toBe(16_000);
    } finally {
      await ws.cleanup();
    }
  });
});
