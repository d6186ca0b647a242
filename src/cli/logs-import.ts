import fs from 'node:fs';
import type { Command, CliIo } from './command.js';
import { UsageError } from './command.js';
import { withAnalytics } from './cli-analytics.js';
import { getProject } from '../projects/projects.js';
import type { LogImportSummary } from '../analytics/ingest/import-logs.js';
import { LOG_FORMATS, type LogFormat } from '../analytics/ingest/log-formats.js';

const mb = (n: number) => `${(n / 1_048_576).toFixed(n < 10_485_760 ? 1 : 0)} MB`;

/** A one-line progress bar on a terminal, redrawn at most every 200 ms. */
function progressBar(total: number | undefined) {
  let last = 0;
  let seen = 0;
  return (read: number, s: LogImportSummary, final = false) => {
    const bytes = (seen = Math.max(seen, read));
    const now = Date.now();
    if (!final && now - last < 200) return;
    last = now;
    const counts = `${s.lines.toLocaleString('en')} lines, ${s.accepted.toLocaleString('en')} accepted`;
    if (total) {
      const share = Math.min(1, bytes / total);
      const bar = '#'.repeat(Math.round(share * 30)).padEnd(30, '-');
      process.stderr.write(`\r[${bar}] ${Math.floor(share * 100)}% ${mb(bytes)}/${mb(total)}  ${counts}`);
    } else process.stderr.write(`\r${mb(bytes)}  ${counts}`);
    if (final) process.stderr.write('\n');
  };
}

export function printSummary(io: CliIo, s: LogImportSummary): void {
  const skipped = Object.values(s.skipped).reduce((a, b) => a + b, 0);
  io.out(
    `format ${s.format}: ${s.lines.toLocaleString('en')} lines read, ${s.accepted.toLocaleString('en')} accepted (${s.duplicates.toLocaleString('en')} already imported), ${skipped.toLocaleString('en')} skipped`,
  );
  for (const [reason, n] of Object.entries(s.skipped).sort((a, b) => b[1] - a[1]))
    io.out(`  ${n.toLocaleString('en')}\t${reason}`);
  for (const e of s.errors) io.out(`  line ${e.line}: ${e.error}`);
}

/** `scribe logs import`: stream an access-log file (or stdin) into a project's analytics. */
export const logsCommands: Record<string, Command> = {
  'logs import': {
    usage: `logs import --project <id> [--format ${LOG_FORMATS.join('|')}] <file|->`,
    summary:
      "Streams a log file (or stdin) into the project's analytics: nginx/Apache combined lines, Cloudflare Logpush or Vercel NDJSON. Shows a progress bar on a terminal and ends with a summary of lines read, accepted and skipped by reason.",
    options: { project: { type: 'string' }, format: { type: 'string' } },
    async run({ config, values, positionals, db, clock, io }) {
      const projectId = values.project;
      const format = values.format ?? 'auto';
      const [file] = positionals;
      if (typeof projectId !== 'string') throw new UsageError('give --project <id>');
      if (typeof format !== 'string' || !(LOG_FORMATS as readonly string[]).includes(format))
        throw new UsageError(`--format must be one of ${LOG_FORMATS.join(', ')}`);
      if (!file || positionals.length > 1) throw new UsageError('give one log file, or - for standard input');
      let size: number | undefined;
      if (file !== '-') {
        try {
          size = fs.statSync(file).size;
        } catch (err) {
          throw new UsageError(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
        }
      }
      const database = await db();
      const project = await getProject(database, projectId);
      const progress = io.interactive ? progressBar(size) : undefined;
      await withAnalytics({ config, clock }, database, async (analytics) => {
        // the range lists a running Scribe refreshed or had imported, not only the shipped ones
        await analytics.loadStoredRanges();
        const input =
          file === '-' ? (io.stdin as AsyncIterable<Buffer>) : fs.createReadStream(file, { highWaterMark: 1 << 20 });
        const summary = await analytics.importLogs({
          projectId: project.id,
          input,
          format: format as 'auto' | LogFormat,
          onProgress: progress,
        });
        progress?.(0, summary, true);
        await analytics.fold();
        printSummary(io, summary);
      });
    },
  },
};
