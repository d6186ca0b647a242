import fs from 'node:fs';
import type { Command } from './command.js';
import { UsageError } from './command.js';
import { withAnalytics } from './cli-analytics.js';
import { getProject } from '../projects/projects.js';

/** `scribe robots import`: a copy of a project host's robots.txt, as seen at a time, becomes a version on record. */
export const robotsCommands: Record<string, Command> = {
  'robots import': {
    usage: 'robots import --project <id> --host <hostname> [--seen <ISO time>] <robots.txt file>',
    summary:
      "Keeps a version of a project host's robots.txt as seen at a time (now by default), for judging AI agents' views against the file in force when they were made.",
    options: { project: { type: 'string' }, host: { type: 'string' }, seen: { type: 'string' } },
    async run({ config, values, positionals, db, clock, io }) {
      const [file] = positionals;
      const { project: projectId, host, seen } = values;
      if (!file || positionals.length > 1) throw new UsageError('give one robots.txt file');
      if (typeof projectId !== 'string' || typeof host !== 'string' || !/^[a-z0-9.-]+(:\d+)?$/i.test(host))
        throw new UsageError('--project <id> and --host <hostname> are required');
      if (seen !== undefined && (typeof seen !== 'string' || Number.isNaN(Date.parse(seen))))
        throw new UsageError('--seen must be an ISO time, e.g. 2026-11-24T09:00:00Z');
      let content: string;
      try {
        content = fs.readFileSync(file, 'utf8');
      } catch (err) {
        throw new UsageError(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      }
      const database = await db();
      const project = await getProject(database, projectId);
      const seenAt = seen ? Date.parse(seen as string) : (fs.statSync(file).mtimeMs as number);
      await withAnalytics({ config, clock }, database, async (analytics) => {
        const kept = await analytics.importRobotsTxt({
          projectId: project.id,
          host,
          content,
          seenAt: Math.floor(seenAt),
        });
        io.out(`${host}: ${kept.outcome} (${kept.hash.slice(0, 12)}), seen ${new Date(seenAt).toISOString()}`);
      });
    },
  },
};
