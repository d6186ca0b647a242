import type { IngestResult } from './analytics.js';
import { detectFormat, parseLogLine, type LogFormat } from './log-formats.js';
import type { PageView } from './prepare-event.js';

export interface LogImportSummary {
  format: 'auto' | LogFormat;
  lines: number;
  accepted: number;
  duplicates: number;
  /** reason → lines; malformed lines are here too, as "malformed: …" */
  skipped: Record<string, number>;
  /** the first malformed lines */
  errors: { line: number; error: string }[];
}

const BATCH = 5000;
const MAX_LINE = 64 * 1024;
const MAX_ERRORS = 20;

/** Splits a byte stream into lines without holding more than one line (≤ 64 KiB) and one chunk in memory. */
async function* lines(input: AsyncIterable<Buffer | string>, onBytes: (n: number) => void): AsyncGenerator<string | { tooLong: true }> {
  let rest = '';
  let skipping = false;
  for await (const chunk of input) {
    const data = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    onBytes(typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length);
    let start = 0;
    for (let nl = data.indexOf('\n'); nl !== -1; nl = data.indexOf('\n', start)) {
      const line = rest + data.slice(start, nl);
      rest = '';
      start = nl + 1;
      if (skipping) skipping = false;
      else yield line.length > MAX_LINE ? { tooLong: true } : line.replace(/\r$/, '');
    }
    if (!skipping) rest += data.slice(start);
    if (rest.length > MAX_LINE) {
      rest = '';
      skipping = true;
      yield { tooLong: true };
    }
  }
  if (rest && !skipping) yield rest.replace(/\r$/, '');
}

/**
 * Streams access-log lines into the analytics: each line is parsed (format named or detected from the first
 * readable line), page views go in batches to `ingest`, everything else is counted by reason. Never fatal.
 */
export async function importLogs(params: {
  input: AsyncIterable<Buffer | string>;
  format: 'auto' | LogFormat;
  ingest: (views: PageView[]) => Promise<IngestResult>;
  /** idempotency key of a line, so importing the same file twice counts it once */
  lineKey: (line: string) => string;
  onProgress?: (bytesRead: number, summary: LogImportSummary) => void;
}): Promise<LogImportSummary> {
  const { input, ingest, lineKey, onProgress } = params;
  let format: LogFormat | undefined = params.format === 'auto' ? undefined : params.format;
  const summary: LogImportSummary = { format: params.format, lines: 0, accepted: 0, duplicates: 0, skipped: {}, errors: [] };
  const skip = (reason: string, n = 1) => (summary.skipped[reason] = (summary.skipped[reason] ?? 0) + n);
  const fail = (line: number, error: string) => {
    skip(`malformed: ${error}`);
    if (summary.errors.length < MAX_ERRORS) summary.errors.push({ line, error });
  };
  let bytes = 0;
  let batch: PageView[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const result = await ingest(batch);
    summary.accepted += result.accepted;
    summary.duplicates += result.duplicates;
    for (const r of result.rejected) skip(r.error);
    batch = [];
    onProgress?.(bytes, summary);
  };
  for await (const line of lines(input, (n) => (bytes += n))) {
    const number = ++summary.lines;
    if (typeof line !== 'string') {
      fail(number, `line longer than ${MAX_LINE} bytes`);
      continue;
    }
    if (!line.trim()) {
      skip('empty line');
      continue;
    }
    format ??= detectFormat(line);
    if (!format) {
      fail(number, 'unrecognised log format (expected nginx/Apache combined, Cloudflare Logpush or Vercel NDJSON)');
      continue;
    }
    if (summary.format === 'auto') summary.format = format;
    const parsed = parseLogLine(line, format);
    if ('error' in parsed) fail(number, parsed.error);
    else if ('skip' in parsed) skip(parsed.skip);
    else {
      batch.push({ ...parsed.view, key: lineKey(line) });
      if (batch.length >= BATCH) await flush();
    }
  }
  await flush();
  onProgress?.(bytes, summary);
  return summary;
}
