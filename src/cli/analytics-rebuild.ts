import type { Command } from './command.js';
import { UsageError } from './command.js';
import { withAnalytics } from './cli-analytics.js';
import { getProject } from '../projects/projects.js';
import type { RebuildProgress } from '../analytics/store/rebuild-derived.js';

/** One line per project when it starts and ends, and on a terminal a running count redrawn at most every 200 ms. */
function progressLines(io: Parameters<Command['run']>[0]['io']) {
  let last = 0;
  let current = '';
  return (p: RebuildProgress) => {
    const line = `${p.projectId}: ${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')} events`;
    if (p.projectId !== current) {
      current = p.projectId;
      io.out(`rebuilding ${p.projectId} (${p.total.toLocaleString('en')} events)`);
    }
    const now = Date.now();
    if (io.interactive && (now - last >= 200 || p.done === p.total)) {
      last = now;
      process.stderr.write(`\r${line}${p.done === p.total ? '\n' : ''}`);
    }
  };
}

/** `scribe analytics rebuild`: derive a project's (or every project's) day sets, day views and rollups again. */
export const analyticsCommands: Record<string, Command> = {
  'analytics rebuild': {
    usage: 'analytics rebuild [--project <id>]',
    summary:
      "Clears a project's (or every project's) derived analytics rows and derives them again from the raw events, in chunks under the analytics derived lock (its first step also holds the write lock a moment), so ingestion goes on. Reports answer from raw events meanwhile; an interrupted rebuild can simply be run again.",
    options: { project: { type: 'string' } },
    async run({ config, values, positionals, db, clock, io }) {
      if (positionals.length) throw new UsageError(`unexpected ${positionals.join(' ')}`);
      const database = await db();
      const projectId =
        typeof values.project === 'string' ? (await getProject(database, values.project)).id : undefined;
      await withAnalytics({ config, clock }, database, async (analytics) => {
        const { projects, events } = await analytics.rebuild({ projectId, onProgress: progressLines(io) });
        io.out(
          `rebuilt ${projects.toLocaleString('en')} project${projects === 1 ? '' : 's'} from ${events.toLocaleString('en')} events`,
        );
      });
    },
  },
};
