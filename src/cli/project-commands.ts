import type { Command } from './command.js';
import { UsageError } from './command.js';
import { addProject, listProjects, removeProject } from '../projects/projects.js';

export const projectCommands: Record<string, Command> = {
  'project add': {
    usage: 'project add --repo <owner/name> --ref <branch> [--installation <id>] [--host <docs hostname>]…',
    summary:
      "Creates a project for a docs repository and prints its id as the last line. --host (repeatable) lists the docs site's hostnames the browser tracker accepts.",
    options: {
      repo: { type: 'string' },
      ref: { type: 'string' },
      installation: { type: 'string' },
      host: { type: 'string', multiple: true },
    },
    async run({ values, db, clock, io }) {
      if (typeof values.repo !== 'string' || typeof values.ref !== 'string')
        throw new UsageError('--repo and --ref are required');
      let installationId: number | null = null;
      if (values.installation !== undefined) {
        installationId = Number(values.installation);
        if (!Number.isInteger(installationId) || installationId <= 0)
          throw new UsageError('--installation must be a positive whole number');
      }
      const project = await addProject({
        db: await db(),
        clock,
        repository: values.repo,
        ref: values.ref,
        installationId,
        hostnames: (values.host as string[] | undefined) ?? [],
      });
      io.out(`created project for ${project.repository} (ref ${project.ref})`);
      io.out(project.id);
    },
  },
  'project list': {
    usage: 'project list',
    summary:
      'One line per project: id, repository, ref, installation, where it came from (manual or installation), state, hostnames.',
    async run({ db, io }) {
      const projects = await listProjects(await db());
      if (!projects.length) {
        io.out('no projects');
        return;
      }
      for (const p of projects) {
        const state = p.disabledAt ? `disabled: ${p.disabledReason ?? 'by an operator'}` : 'enabled';
        const install = p.installationId ? `installation ${p.installationId}` : 'no installation';
        io.out(
          `${p.id}\t${p.repository}\t${p.ref}\t${install}\t${p.source}\t${state}\thosts: ${p.hostnames.join(',') || '-'}`,
        );
      }
    },
  },
  'project remove': {
    usage: 'project remove <id>',
    summary: 'Deletes a project and its keys.',
    async run({ positionals, db, io }) {
      const [id] = positionals;
      if (!id) throw new UsageError('give the project id');
      const project = await removeProject(await db(), id);
      io.out(`removed project ${project.id} (${project.repository})`);
    },
  },
};
