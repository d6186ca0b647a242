import type { Db } from '../db/client.js';
import { unstorableText } from '../db/storable-text.js';
import type { Clock } from '../clock.js';
import { randomId } from '../ids.js';
import { Conflict, Invalid, NotFound } from '../errors.js';

export interface Project {
  id: string;
  /** owner/name on the GitHub host */
  repository: string;
  ref: string;
  installationId: number | null;
  /** hostnames the docs site is served from (browser analytics accepts events only from these) */
  hostnames: string[];
  source: 'manual' | 'installation';
  disabledAt: Date | null;
  /** why it was disabled (e.g. the GitHub App was removed from the repository); null while enabled */
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const HOSTNAME =
  /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(:\d{1,5})?$/;
// git check-ref-format, simplified: no spaces, control characters, "..", "~^:?*[\", or leading "-".
const REF = /^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*@\{)[^\s~^:?*[\\\x00-\x1f\x7f]+(?<![./])$/;

function validateProjectInput(input: { repository: string; ref: string; hostnames?: string[] }): void {
  const details = [];
  if (!REPOSITORY.test(input.repository)) details.push({ message: 'repository must be owner/name' });
  if (!REF.test(input.ref)) details.push({ message: 'ref must be a valid branch name' });
  for (const host of input.hostnames ?? []) {
    if (!HOSTNAME.test(host)) details.push({ message: `hostname ${JSON.stringify(host)} is not a valid host name` });
  }
  if (details.length) throw new Invalid('Invalid project', details);
}

export async function addProject(params: {
  db: Db;
  clock: Clock;
  repository: string;
  ref: string;
  installationId?: number | null;
  hostnames?: string[];
  source?: Project['source'];
}): Promise<Project> {
  const { db, clock, repository, ref } = params;
  const hostnames = [...new Set((params.hostnames ?? []).map((h) => h.toLowerCase()))];
  validateProjectInput({ repository, ref, hostnames });
  if (await db.project.findUnique({ where: { repository } })) {
    throw new Conflict(`A project for ${repository} already exists`);
  }
  const now = clock();
  const row = await db.project.create({
    data: {
      id: randomId('prj'),
      repository,
      ref,
      installationId: params.installationId ?? null,
      hostnames: JSON.stringify(hostnames),
      source: params.source ?? 'manual',
      createdAt: now,
      updatedAt: now,
    },
  });
  return toProject(row);
}

export async function listProjects(db: Db): Promise<Project[]> {
  return (await db.project.findMany({ orderBy: { createdAt: 'asc' } })).map(toProject);
}

/** The project with this id; null when there is none, as for an id no column could hold (a browser may send any). */
export async function findProject(db: Db, id: string): Promise<Project | null> {
  // PostgreSQL would refuse the query itself rather than find nothing
  if (unstorableText(id) !== undefined) return null;
  const row = await db.project.findUnique({ where: { id } });
  return row ? toProject(row) : null;
}

export async function findProjectByRepository(db: Db, repository: string): Promise<Project | null> {
  const row = await db.project.findUnique({ where: { repository } });
  return row ? toProject(row) : null;
}

export async function getProject(db: Db, id: string): Promise<Project> {
  const project = await findProject(db, id);
  if (!project) throw new NotFound('Project not found');
  return project;
}

export async function removeProject(db: Db, id: string): Promise<Project> {
  const project = await getProject(db, id);
  await db.project.delete({ where: { id } });
  return project;
}

type ProjectRow = Omit<Project, 'hostnames' | 'source'> & { hostnames: string; source: string };

function toProject(row: ProjectRow): Project {
  return {
    ...row,
    hostnames: JSON.parse(row.hostnames) as string[],
    source: row.source === 'installation' ? 'installation' : 'manual',
  };
}
