import { isDocsCommand } from '../../src/webhooks/docs-draft-requests.js';

describe('isDocsCommand', () => {
  it('is `docs` alone, in any case', () => {
    for (const text of ['docs', 'Docs', ' DOCS ', 'docs.', 'docs!']) expect(isDocsCommand(text)).toBe(true);
  });

  it('is not an instruction that only starts with docs', () => {
    for (const text of ['', 'docs please rewrite everything', 'update the docs', 'docsify', 'doc'])
      expect(isDocsCommand(text)).toBe(false);
  });
});
