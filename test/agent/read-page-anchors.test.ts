import { anchorKey } from '../../src/agent/page-anchors.js';
import { readPageAnchors } from '../../src/agent/read-page-anchors.js';

function reader(files: Record<string, string>) {
  const reads: string[] = [];
  return {
    reads,
    read: async (file: string) => {
      reads.push(file);
      return files[file];
    },
    // Snippets here are named by their path from the root, as `/snippets/x.mdx`.
    resolveImport: async (_fromFile: string, specifier: string) => {
      const file = specifier.replace(/^\//, '');
      return file in files ? file : undefined;
    },
  };
}

describe('readPageAnchors', () => {
  it('adds the headings of the snippets a page includes, and of theirs, counting repeats across them', async () => {
    const files = reader({
      'page.mdx': 'import A from "/snippets/a.mdx";\n\n## Options\n\n<A />\n',
      'snippets/a.mdx': 'import B from "/snippets/b.mdx";\n\n## Options\n\n<B />\n',
      'snippets/b.mdx': '### Deep heading\n',
    });
    const anchors = await readPageAnchors({ file: 'page.mdx', format: () => 'mdx', ...files });
    expect(anchors?.complete).toBe(true);
    for (const anchor of ['options', 'options-2', 'deep-heading'])
      expect([anchor, anchors?.keys.has(anchorKey(anchor))]).toEqual([anchor, true]);
  });

  it('reads each snippet of a cycle once, and is unknown when a snippet cannot be read', async () => {
    const cycle = reader({
      'page.mdx': 'import A from "/snippets/a.mdx";\n',
      'snippets/a.mdx': 'import B from "/snippets/b.mdx";\n\n## In A\n',
      'snippets/b.mdx': 'import A from "/snippets/a.mdx";\n\n## In B\n',
    });
    const anchors = await readPageAnchors({ file: 'page.mdx', format: () => 'mdx', ...cycle });
    expect(anchors?.complete).toBe(true);
    expect([...(anchors?.keys ?? [])].sort()).toEqual(['ina', 'inb']);
    expect(cycle.reads).toEqual(['page.mdx', 'snippets/a.mdx', 'snippets/b.mdx']);

    const missing = reader({ 'page.mdx': 'import A from "/snippets/gone.mdx";\n\n## Here\n' });
    expect((await readPageAnchors({ file: 'page.mdx', format: () => 'mdx', ...missing }))?.complete).toBe(false);
    expect(await readPageAnchors({ file: 'nowhere.mdx', format: () => 'mdx', ...missing })).toBeUndefined();
  });
});
