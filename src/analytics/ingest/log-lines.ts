export const MAX_LINE_BYTES = 64 * 1024;

export type LogLine = string | { tooLong: true };

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines without holding more than one line (≤ 64 KiB) and one chunk in memory.
 *
 * Lines are split on bytes and decoded whole: a read may end inside a multi-byte UTF-8 character, and decoding each
 * read on its own would turn the two halves into replacement characters — a different line each time the file is
 * cut differently, so a different idempotency key and a different visitor. A newline byte never occurs inside a
 * multi-byte UTF-8 sequence, so splitting on it first is safe.
 */
export async function* logLines(
  input: AsyncIterable<Buffer | string>,
  onBytes: (n: number) => void,
): AsyncGenerator<LogLine> {
  let pieces: Buffer[] = [];
  let held = 0;
  let skipping = false;
  for await (const chunk of input) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    onBytes(data.length);
    let start = 0;
    for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
      const piece = data.subarray(start, nl);
      start = nl + 1;
      if (skipping) skipping = false;
      else if (held + piece.length > MAX_LINE_BYTES) yield { tooLong: true };
      else yield decode(held ? Buffer.concat([...pieces, piece]) : piece);
      pieces = [];
      held = 0;
    }
    if (skipping || start === data.length) continue;
    // copied, so a short rest does not keep the whole chunk alive
    pieces.push(Buffer.from(data.subarray(start)));
    held += data.length - start;
    if (held > MAX_LINE_BYTES) {
      pieces = [];
      held = 0;
      skipping = true;
      yield { tooLong: true };
    }
  }
  if (held) yield decode(Buffer.concat(pieces));
}

function decode(line: Buffer): string {
  return line.toString('utf8').replace(/\r$/, '');
}
