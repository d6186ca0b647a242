import type { Command } from './command.js';
import { UsageError } from './command.js';
import { withAnalytics } from './cli-analytics.js';
import { Conflict } from '../errors.js';
import { getProject } from '../projects/projects.js';
import type { CopyProgress } from '../analytics/clickhouse/copy-events.js';

/** A line per project as it starts, and on a terminal a progress bar redrawn at most every 200 ms. */
function progressBar(io: Parameters<Command['run']>[0]['io']) {
  let last = 0;
  let current = '';
  return (p: CopyProgress) => {
    if (p.projectId !== current) {
      current = p.projectId;
      io.out(
        `copying ${p.projectId} (${p.total.toLocaleString('en')} events, ${p.done.toLocaleString('en')} copied before)`,
      );
    }
    const now = Date.now();
    if (io.interactive && (now - last >= 200 || p.done === p.total)) {
      last = now;
      const share = p.total ? p.done / p.total : 1;
      const bar = '#'.repeat(Math.round(share * 30)).padEnd(30, '.');
      process.stderr.write(
        `\r[${bar}] ${(share * 100).toFixed(1)}% ${p.done.toLocaleString('en')}/${p.total.toLocaleString('en')}${p.done === p.total ? '\n' : ''}`,
      );
    }
  };
}

/**
 * `scribe analytics copy --to clickhouse`: streams the raw events of the primary database into ClickHouse (the one
 * `CLICKHOUSE_URL` names), resumable, and checks each project's totals on both sides. Meant to run before Scribe
 * serves with `CLICKHOUSE_URL` (views ingested into ClickHouse meanwhile would make the totals differ).
 */
export const analyticsCopyCommands: Record<string, Command> = {
  'analytics copy': {
    usage: 'analytics copy --to clickhouse [--project <id>]',
    summary:
      "With CLICKHOUSE_URL: streams the raw page views of the primary database into ClickHouse, resumably, then compares each project's totals on both sides (exit 1 when they differ).",
    options: { to: { type: 'string' }, project: { type: 'string' } },
    async run({ config, values, positionals, db, clock, io }) {
      if (positionals.length) throw new UsageError(`unexpected ${positionals.join(' ')}`);
      if (values.to !== 'clickhouse') throw new UsageError('--to clickhouse is the one destination');
      if (!config.analytics.clickhouse) throw new UsageError('set CLICKHOUSE_URL to the ClickHouse to copy into');
      const database = await db();
      const projectId =
        typeof values.project === 'string' ? (await getProject(database, values.project)).id : undefined;
      await withAnalytics({ config, clock }, database, async (analytics) => {
        const outcomes = await analytics.copyToClickHouse({ projectId, onProgress: progressBar(io) });
        const wrong = outcomes.filter((o) => o.clickhouse !== o.primary);
        for (const o of outcomes) {
          io.out(
            `${o.projectId}: copied ${o.copied.toLocaleString('en')}; ${o.primary.toLocaleString('en')} events in the primary database, ${o.clickhouse.toLocaleString('en')} in ClickHouse${o.clickhouse === o.primary ? ' (verified)' : ' (DIFFERENT)'}`,
          );
        }
        if (wrong.length) {
          throw new Conflict(
            `totals differ for ${wrong.map((o) => o.projectId).join(', ')}: were views ingested into ClickHouse meanwhile?`,
          );
        }
      });
    },
  },
};
