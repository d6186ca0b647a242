import type { ScribeProcess } from './scribe-process.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Posts browser page view number `n` (path `/e/<n>`) of the project's site to the tracker; the HTTP status. */
export function sendPageView(url: string, projectId: string, n: number): Promise<number> {
  return fetch(`${url}/api/event`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': CHROME },
    body: JSON.stringify({ projectId, url: `https://docs.example.com/e/${n}` }),
  }).then((r) => r.status);
}

/**
 * Loads the tracker from `clients` clients, each posting one numbered view at a time, and kills the process with
 * SIGKILL once `killAfter` views were answered 202 — while every client waits for an answer. Returns the numbers
 * answered 202 and how many were sent (numbers 0 to sent - 1).
 */
export async function killUnderTrackerLoad(params: {
  scribe: ScribeProcess;
  projectId: string;
  clients: number;
  killAfter: number;
}): Promise<{ acked: number[]; sent: number }> {
  const { scribe, projectId } = params;
  const acked: number[] = [];
  let sent = 0;
  let killed = false;
  const clients = Array.from({ length: params.clients }, async () => {
    while (!killed) {
      const n = sent++;
      const status = await sendPageView(scribe.url, projectId, n).catch(() => 0);
      if (status === 202) acked.push(n);
      else if (!killed) throw new Error(`unexpected answer ${status}`);
    }
  });
  while (acked.length < params.killAfter) await new Promise((r) => setTimeout(r, 5));
  killed = true;
  await scribe.kill();
  await Promise.all(clients);
  return { acked, sent };
}
