import { setDocsAccess } from '../projects/docs-access.js';
import { getProject } from '../projects/projects.js';
import type { Command } from './command.js';
import { UsageError } from './command.js';

/** `scribe docs access`: whether a project's docs (MCP, llms.txt, `.md` pages) need a read key. */
export const docsAccessCommands: Record<string, Command> = {
  'docs access': {
    usage: 'docs access <project id> public|key',
    summary:
      "Sets who may read the project's docs over MCP, llms.txt and the pages' Markdown: `public` (anyone) or `key` (a read key of the project).",
    async run({ positionals, db, clock, io }) {
      const [projectId, access] = positionals;
      if (!projectId || (access !== 'public' && access !== 'key') || positionals.length > 2)
        throw new UsageError('give the project id, then public (anyone) or key (a read key of the project)');
      const database = await db();
      const project = await getProject(database, projectId);
      await setDocsAccess(database, { projectId: project.id, public: access === 'public', now: clock() });
      io.out(`docs of ${project.id} (${project.repository}): ${access === 'public' ? 'public' : 'read key required'}`);
    },
  },
};
