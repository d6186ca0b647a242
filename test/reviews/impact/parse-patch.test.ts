import { parsePatch } from '../../../src/reviews/impact/parse-patch.js';

describe('parsePatch', () => {
  it('numbers removed lines in the base file and added and context lines in the head file, hunk by hunk', () => {
    const hunks = parsePatch(
      [
        '@@ -10,3 +10,3 @@ func x() {',
        ' keep',
        '-old',
        '+new',
        '\\ No newline at end of file',
        '@@ -40 +40,2 @@',
        ' a',
        '+b',
      ].join('\n'),
    );
    expect(hunks).toEqual([
      {
        lines: [
          { side: ' ', text: 'keep', line: 10 },
          { side: '-', text: 'old', line: 11 },
          { side: '+', text: 'new', line: 11 },
        ],
      },
      {
        lines: [
          { side: ' ', text: 'a', line: 40 },
          { side: '+', text: 'b', line: 41 },
        ],
      },
    ]);
  });

  it('reads nothing from an empty patch or text before the first hunk, and keeps CRLF lines clean', () => {
    expect(parsePatch('')).toEqual([]);
    expect(parsePatch('diff --git a/x b/x\n+not in a hunk')).toEqual([]);
    expect(parsePatch('@@ -1 +1 @@\r\n-a\r\n+b\r\n')[0].lines.map((l) => l.text)).toEqual(['a', 'b']);
  });
});
