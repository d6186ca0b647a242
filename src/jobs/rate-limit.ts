import type { Db } from '../db/client.js';
import type { Clock } from '../clock.js';
import { RateLimited } from '../errors.js';
import { HOUR_MS } from '../calendar.js';

const WINDOW_MS = HOUR_MS;

/**
 * Sliding one-hour window over the project's accepted prompts (job creations and follow-ups are both rows of
 * AgentJobMessage), so no separate counter can drift from what was really accepted.
 */
export async function enforceJobRateLimit(params: {
  db: Db;
  clock: Clock;
  projectId: string;
  perHour: number;
}): Promise<void> {
  const { db, projectId, perHour } = params;
  const now = params.clock().getTime();
  const since = new Date(now - WINDOW_MS);
  const used = await db.agentJobMessage.count({ where: { projectId, createdAt: { gt: since } } });
  if (used < perHour) return;
  // The window frees up when the oldest request that still counts leaves it.
  const [oldest] = await db.agentJobMessage.findMany({
    where: { projectId, createdAt: { gt: since } },
    orderBy: { createdAt: 'desc' },
    skip: perHour - 1,
    take: 1,
    select: { createdAt: true },
  });
  const retryAfter = Math.max(1, Math.ceil(((oldest?.createdAt.getTime() ?? now) + WINDOW_MS - now) / 1000));
  throw new RateLimited(
    `Rate limit of ${perHour} agent requests per hour reached for this project; retry in ${retryAfter} seconds`,
    retryAfter,
  );
}
