import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** wait this long before answering (a slow receiver) */
  delayMs?: number;
  /** never answer (a receiver that hangs until the sender gives up or dies) */
  hang?: boolean;
}

/** A local receiver of outgoing webhooks: records every request and answers as the test says. */
export interface WebhookReceiver {
  url: string;
  received: Received[];
  answer: (request: Received) => Answer;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hook'): Promise<WebhookReceiver> {
  const receiver = { received: [] as Received[], answer: (() => ({ status: 200 })) as (r: Received) => Answer };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      receiver.received.push(request);
      const answer = receiver.answer(request);
      if (answer.hang) return;
      setTimeout(() => res.writeHead(answer.status, answer.headers).end(answer.body ?? 'ok'), answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
