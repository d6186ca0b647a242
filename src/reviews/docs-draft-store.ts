import type { Db } from '../db/client.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import type { Clock } from '../clock.js';
import { randomId } from '../ids.js';

/** What Scribe last brought the docs pull request to, after the source pull request's state. */
export type SourceState = 'open' | 'merged' | 'closed';

export interface DocsDraft {
  id: string;
  projectId: string;
  automationId: string;
  /** the source repository, owner/name */
  repository: string;
  /** the source pull request */
  number: number;
  requestedBy: string;
  /** the job whose pull request is the draft; null while its first run is being asked for */
  jobId: string | null;
  /** the docs pages the findings named */
  pages: string[];
  sourceState: SourceState;
  createdAt: Date;
  updatedAt: Date;
}

type Row = Awaited<ReturnType<Db['docsDraft']['findUniqueOrThrow']>>;
const toDraft = (row: Row): DocsDraft => ({
  ...row,
  pages: JSON.parse(row.pages) as string[],
  sourceState: row.sourceState as SourceState,
});

export type DraftKey = Pick<DocsDraft, 'projectId' | 'automationId' | 'repository' | 'number'>;

/**
 * The draft of this source pull request and automation: created now (`created: true`), or the one a redelivery,
 * another replica or an earlier attempt created (the unique key decides, so exactly one caller creates it).
 */
export async function claimDraft(params: {
  db: Db;
  clock: Clock;
  key: DraftKey;
  requestedBy: string;
  pages: string[];
}): Promise<{ draft: DocsDraft; created: boolean }> {
  const { db, key } = params;
  const now = params.clock();
  try {
    const row = await db.docsDraft.create({
      data: {
        id: randomId('ddraft'),
        ...key,
        requestedBy: params.requestedBy,
        jobId: null,
        pages: JSON.stringify(params.pages),
        sourceState: 'open',
        createdAt: now,
        updatedAt: now,
      },
    });
    return { draft: toDraft(row), created: true };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const row = await db.docsDraft.findUniqueOrThrow({
      where: { projectId_automationId_repository_number: key },
    });
    return { draft: toDraft(row), created: false };
  }
}

/** Every automation's draft of a source pull request. */
export async function draftsOfPull(db: Db, repository: string, number: number): Promise<DocsDraft[]> {
  const rows = await db.docsDraft.findMany({ where: { repository, number }, orderBy: { createdAt: 'asc' } });
  return rows.map(toDraft);
}

export async function findDraftByJob(db: Db, jobId: string): Promise<DocsDraft | null> {
  const row = await db.docsDraft.findFirst({ where: { jobId } });
  return row ? toDraft(row) : null;
}

export async function updateDraft(params: {
  db: Db;
  clock: Clock;
  id: string;
  data: Partial<Pick<DocsDraft, 'jobId' | 'pages' | 'sourceState'>>;
}): Promise<DocsDraft> {
  const { pages, ...rest } = params.data;
  const row = await params.db.docsDraft.update({
    where: { id: params.id },
    data: { ...rest, ...(pages ? { pages: JSON.stringify(pages) } : {}), updatedAt: params.clock() },
  });
  return toDraft(row);
}
