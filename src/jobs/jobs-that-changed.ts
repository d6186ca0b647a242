import type { Db } from '../db/client.js';
import { toJobRecord, type JobRecord } from './job-store.js';

/** The agent's tools that only read. */
const READS = new Set(['view']);

/**
 * A project's jobs with a pull request whose agent changed `file` (a path in the docs repository), newest first: read
 * from the step log's tool calls, the one record of what a run touched.
 */
export async function jobsThatChanged(
  db: Db,
  params: { projectId: string; file: string; limit: number },
): Promise<JobRecord[]> {
  const events = await db.agentJobEvent.findMany({
    where: {
      type: 'tool_call',
      data: { contains: `"path":${JSON.stringify(params.file)}` },
      job: { projectId: params.projectId, prLink: { not: null } },
    },
    select: { jobId: true, data: true },
  });
  const ids = new Set<string>();
  for (const event of events) {
    const call = JSON.parse(event.data) as { path?: string; command?: string; ok?: boolean };
    if (call.path === params.file && call.ok && !READS.has(call.command ?? '')) ids.add(event.jobId);
  }
  if (!ids.size) return [];
  const rows = await db.agentJob.findMany({
    where: { id: { in: [...ids] } },
    orderBy: { createdAt: 'desc' },
    take: params.limit,
  });
  return rows.map(toJobRecord);
}
