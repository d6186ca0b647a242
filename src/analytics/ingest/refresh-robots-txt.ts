import type net from 'node:net';
import { claimRobotsFetch, recordRobotsFetch } from '../store/robots-fetches.js';
import { recordRobotsVersion } from '../store/robots-txt.js';
import type { Sql } from '../store/sql.js';
import { guardedGet } from './fetch-key-directory.js';

const HOUR_MS = 3_600_000;
/** a robots.txt past this is cut by crawlers too (Google reads 500 KiB) */
const MAX_BYTES = 512 * 1024;
const TIMEOUT_MS = 10_000;

/**
 * One round of the hourly robots.txt fetch: each project host not attempted by any replica for an hour is claimed
 * and fetched. A 200 is a sighting of its content (a new version when it changed); a 404 or 410 is a sighting of no
 * robots.txt (an empty version: nothing disallowed from then on); anything else keeps the versions and is recorded as
 * the host's availability. Returns how many hosts this replica fetched.
 */
export async function refreshRobotsTxt(params: {
  sql: Sql;
  hosts: { projectId: string; host: string }[];
  now: number;
  allow?: net.BlockList;
  /** where a host's robots.txt is fetched (tests: a local http server) */
  urlOf?: (host: string) => string;
}): Promise<number> {
  const { sql, now } = params;
  let fetched = 0;
  for (const { projectId, host } of params.hosts) {
    if (!(await claimRobotsFetch(sql, { projectId, host, now, retryBefore: now - HOUR_MS }))) continue;
    fetched++;
    try {
      const answer = await guardedGet({
        url: params.urlOf?.(host) ?? `https://${host}/robots.txt`,
        allow: params.allow,
        timeoutMs: TIMEOUT_MS,
        maxBytes: MAX_BYTES,
        accept: 'text/plain',
      });
      if (answer.status === 200 || answer.status === 404 || answer.status === 410)
        await recordRobotsVersion(sql, {
          projectId,
          host,
          content: answer.status === 200 ? answer.body : '',
          seenAt: now,
        });
      await recordRobotsFetch(sql, {
        projectId,
        host,
        status: answer.status,
        error:
          answer.status === 200 || answer.status === 404 || answer.status === 410 ? null : `answered ${answer.status}`,
      });
    } catch (err) {
      await recordRobotsFetch(sql, { projectId, host, status: null, error: (err as Error).message });
    }
  }
  return fetched;
}
