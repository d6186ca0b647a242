import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LRUCache } from 'lru-cache';

export interface McpSession {
  projectId: string;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
}

/**
 * The MCP sessions this process holds (Streamable HTTP, one per client `initialize`): the session keeps the client's
 * `clientInfo`, which names the agent each read is counted for. At most `max` sessions, each dropped after
 * `idleMs` without a request (a client then initializes again, as the protocol has it for an unknown session).
 */
export class McpSessions {
  private readonly sessions: LRUCache<string, McpSession>;

  constructor(params: { max: number; idleMs: number }) {
    this.sessions = new LRUCache<string, McpSession>({
      max: params.max,
      ttl: params.idleMs,
      updateAgeOnGet: true,
      dispose: (session) => {
        void session.transport.close();
        void session.server.close();
      },
    });
  }

  get(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  /** A new session for `projectId`, kept once its `initialize` is answered. */
  open(projectId: string, server: McpServer): McpSession {
    const session: McpSession = {
      projectId,
      server,
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          this.sessions.set(id, session);
        },
        onsessionclosed: (id) => {
          this.sessions.delete(id);
        },
      }),
    };
    return session;
  }

  close(): void {
    this.sessions.clear();
  }
}
