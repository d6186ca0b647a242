/**
 * The lines of a unified diff as GitHub's "list pull request files" gives it (hunks only, no file headers). Pure.
 * Removed lines carry their line number in the base file, added and context lines their number in the head file.
 */
export interface PatchLine {
  side: '-' | '+' | ' ';
  text: string;
  /** 1-based: in the base file for removed lines, in the head file for added and context lines. */
  line: number;
}

export interface Hunk {
  lines: PatchLine[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function parsePatch(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  let oldLine = 0;
  let newLine = 0;
  for (const raw of patch.split('\n')) {
    const header = HUNK_HEADER.exec(raw);
    if (header) {
      current = { lines: [] };
      hunks.push(current);
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      continue;
    }
    if (!current) continue;
    const text = raw.endsWith('\r') ? raw.slice(1, -1) : raw.slice(1);
    if (raw.startsWith('-')) current.lines.push({ side: '-', text, line: oldLine++ });
    else if (raw.startsWith('+')) current.lines.push({ side: '+', text, line: newLine++ });
    else if (raw.startsWith(' ')) {
      current.lines.push({ side: ' ', text, line: newLine++ });
      oldLine++;
    }
    // "\ No newline at end of file" and stray lines carry no content.
  }
  return hunks;
}
