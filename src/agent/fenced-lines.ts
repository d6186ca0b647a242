/**
 * For each line, whether it is inside a fenced code block (the fence lines included). A fence left open
 * runs to the end of the text, as CommonMark has it.
 */
export function fencedLines(lines: readonly string[]): boolean[] {
  let open: string | undefined;
  return lines.map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (!open) {
      if (marker) open = marker;
      return open !== undefined;
    }
    if (marker && marker[0] === open[0] && marker.length >= open.length && line.trim() === marker) open = undefined;
    return true;
  });
}
