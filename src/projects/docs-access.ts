import type { Db } from '../db/client.js';

/** Whether anyone may read the project's docs over MCP, llms.txt and `.md` pages (else only with a read key). */
export async function docsArePublic(db: Db, projectId: string): Promise<boolean> {
  const row = await db.projectDocsAccess.findUnique({ where: { projectId } });
  return row?.public ?? false;
}

/** Opens the project's served docs to anyone, or closes them to read keys. */
export async function setDocsAccess(db: Db, params: { projectId: string; public: boolean; now: Date }): Promise<void> {
  const { projectId, now } = params;
  await db.projectDocsAccess.upsert({
    where: { projectId },
    create: { projectId, public: params.public, updatedAt: now },
    update: { public: params.public, updatedAt: now },
  });
}
