import net from 'node:net';

/** A client on a real socket, for what fetch cannot do: send half a request, or hold a connection open. */
export interface RawConnection {
  /** sends these bytes as they are */
  send(text: string): void;
  /** everything the server sent, once it closed the connection (or once `timeoutMs` passed: null) */
  closed(timeoutMs: number): Promise<string | null>;
  /** everything the server sent so far, once it has sent something containing `marker` */
  received(marker: string, timeoutMs: number): Promise<string | null>;
  destroy(): void;
}

/** Opens a connection to the server at `url` (http://host:port). */
export async function connect(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let data = '';
  let ended = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  socket.on('data', (chunk: Buffer) => {
    data += chunk.toString('utf8');
    wake();
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    ended = true;
    wake();
  });
  const until = (done: () => boolean, timeoutMs: number) =>
    new Promise<string | null>((resolve) => {
      const check = () => {
        if (!done()) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(data);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        resolve(null);
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    send: (text) => void socket.write(text),
    closed: (timeoutMs) => until(() => ended, timeoutMs),
    received: (marker, timeoutMs) => until(() => data.includes(marker), timeoutMs),
    destroy: () => socket.destroy(),
  };
}

/** The status code and the JSON body of a whole HTTP/1.1 answer read off a socket. */
export function parseAnswer(raw: string): { status: number; headers: string; body: unknown } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const text = rest.join('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head, body: text ? JSON.parse(text) : null };
}
