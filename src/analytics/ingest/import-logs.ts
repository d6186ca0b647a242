import type { BatchResult } from './batch-result.js';
import { detectFormat, parseLogLine, type LogFormat } from './log-formats.js';
import type { PageView } from './prepare-event.js';
import type { Miss } from './record-ai-misses.js';
import { logLines, MAX_LINE_BYTES } from './log-lines.js';
import { LineOccurrences } from './line-occurrences.js';

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
const MAX_ERRORS = 20;

/**
 * Streams access-log lines into the analytics: each line is parsed (format named or detected from the first
 * readable line), page views go in batches to `ingest`, everything else is counted by reason. Never fatal.
 */
export async function importLogs(params: {
  input: AsyncIterable<Buffer | string>;
  format: 'auto' | LogFormat;
  ingest: (views: PageView[]) => Promise<BatchResult>;
  /**
   * Idempotency key of a line, so importing the same file twice counts it once. Asked for the line itself for its
   * first copy in the import and for the line, a newline and N for its Nth copy — text no read line can equal,
   * since lines are split on newlines — so identical lines within a log still count apiece.
   */
  lineKey: (line: string) => string;
  /** keeps the requests answered 404/410/5xx (keyed like page views); without it they are only counted as skipped */
  recordMisses?: (misses: Miss[]) => Promise<void>;
  onProgress?: (bytesRead: number, summary: LogImportSummary) => void;
}): Promise<LogImportSummary> {
  const { input, ingest, lineKey, recordMisses, onProgress } = params;
  let format: LogFormat | undefined = params.format === 'auto' ? undefined : params.format;
  const summary: LogImportSummary = {
    format: params.format,
    lines: 0,
    accepted: 0,
    duplicates: 0,
    skipped: {},
    errors: [],
  };
  const skip = (reason: string, n = 1) => (summary.skipped[reason] = (summary.skipped[reason] ?? 0) + n);
  const fail = (line: number, error: string) => {
    skip(`malformed: ${error}`);
    if (summary.errors.length < MAX_ERRORS) summary.errors.push({ line, error });
  };
  let bytes = 0;
  const occurrences = new LineOccurrences();
  let batch: PageView[] = [];
  let misses: Miss[] = [];
  const flush = async () => {
    if (misses.length) await recordMisses?.(misses);
    misses = [];
    if (!batch.length) return;
    const result = await ingest(batch);
    summary.accepted += result.accepted;
    summary.duplicates += result.duplicates;
    for (const r of result.rejected) skip(r.error);
    batch = [];
    onProgress?.(bytes, summary);
  };
  for await (const line of logLines(input, (n) => (bytes += n))) {
    const number = ++summary.lines;
    if (typeof line !== 'string') {
      fail(number, `line longer than ${MAX_LINE_BYTES} bytes`);
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
    const key = () => {
      const first = lineKey(line);
      const occurrence = occurrences.next(first);
      return occurrence === 1 ? first : lineKey(`${line}\n${occurrence}`);
    };
    if ('error' in parsed) fail(number, parsed.error);
    else if ('skip' in parsed) {
      skip(parsed.skip);
      if (parsed.missed && recordMisses) {
        misses.push({ ...parsed.missed, key: key() });
        if (misses.length >= BATCH) await flush();
      }
    } else {
      batch.push({ ...parsed.view, key: key() });
      if (batch.length >= BATCH) await flush();
    }
  }
  await flush();
  onProgress?.(bytes, summary);
  return summary;
}
