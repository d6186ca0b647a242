import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import type { Automation, ConfigProblem } from './parse-config.js';

/** A project's automations as last read from its default branch. */
export interface LoadedConfig {
  projectId: string;
  sha: string | null;
  automations: Automation[];
  problems: ConfigProblem[];
  /** automation id → when it first loaded; a schedule runs no slot before it */
  firstSeen: Record<string, string>;
  loadedAt: Date;
}

type Row = Awaited<ReturnType<Db['automationConfig']['findUniqueOrThrow']>>;

function toLoaded(row: Row): LoadedConfig {
  return {
    projectId: row.projectId,
    sha: row.sha,
    automations: JSON.parse(row.automations) as Automation[],
    problems: JSON.parse(row.problems) as ConfigProblem[],
    firstSeen: JSON.parse(row.firstSeen) as Record<string, string>,
    loadedAt: row.loadedAt,
  };
}

export async function findConfig(db: Db, projectId: string): Promise<LoadedConfig | null> {
  const row = await db.automationConfig.findUnique({ where: { projectId } });
  return row ? toLoaded(row) : null;
}

export async function listConfigs(db: Db): Promise<LoadedConfig[]> {
  return (await db.automationConfig.findMany({ orderBy: { projectId: 'asc' } })).map(toLoaded);
}

/** Stores what was read; an automation keeps its first-seen time across reloads, a removed one forgets it. */
export async function saveConfig(params: {
  db: Db;
  clock: Clock;
  projectId: string;
  sha: string | null;
  automations: Automation[];
  problems: ConfigProblem[];
}): Promise<LoadedConfig> {
  const { db, projectId } = params;
  const now = params.clock();
  const previous = await findConfig(db, projectId);
  const firstSeen = Object.fromEntries(
    params.automations.map((a) => [a.id, previous?.firstSeen[a.id] ?? now.toISOString()]),
  );
  const data = {
    sha: params.sha,
    automations: JSON.stringify(params.automations),
    problems: JSON.stringify(params.problems),
    firstSeen: JSON.stringify(firstSeen),
    loadedAt: now,
  };
  const row = await db.automationConfig.upsert({ where: { projectId }, create: { projectId, ...data }, update: data });
  return toLoaded(row);
}
