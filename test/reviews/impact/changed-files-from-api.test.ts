import { changedFilesFromApi } from '../../../src/reviews/impact/changed-files-from-api.js';

describe('changedFilesFromApi', () => {
  it('keeps the name, status, previous name and patch, and leaves the patch out when GitHub sent none', () => {
    expect(
      changedFilesFromApi([
        { filename: 'src/a.ts', status: 'modified', patch: '@@ -1 +1 @@\n-a\n+b' },
        { filename: 'src/new.ts', status: 'renamed', previous_filename: 'src/old.ts' },
        { filename: 'logo.png', status: 'added' },
        { filename: 'src/b.ts', status: 'some-future-status', patch: '' },
      ]),
    ).toEqual([
      { filename: 'src/a.ts', status: 'modified', patch: '@@ -1 +1 @@\n-a\n+b' },
      { filename: 'src/new.ts', status: 'renamed', previousFilename: 'src/old.ts' },
      { filename: 'logo.png', status: 'added' },
      { filename: 'src/b.ts', status: 'modified', patch: '' },
    ]);
  });
});
