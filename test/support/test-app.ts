import { TEST_KEEP_ALIVE_SECONDS } from './keep-alive.js';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Express, RequestHandler } from 'express';
import { createHttpApp, type RouteModule } from '../../src/http/app.js';
import { MAX_DELIVERY_BYTES } from '../../src/webhooks/delivery-problem.js';
import { createHttpServer } from '../../src/http/http-server.js';
import type { AppContext } from '../../src/http/context.js';
import { loadConfig, missingForAgentJobs, type Config } from '../../src/config.js';
import { agentJobRoutes } from '../../src/http/routes/agent-jobs.js';
import { createJobRequests } from '../../src/jobs/job-requests.js';
import { createJobEventNotifier, type JobEventNotifier } from '../../src/jobs/job-event-notifier.js';
import { createLogger } from '../../src/logger.js';
import type { Clock } from '../../src/clock.js';
import { addProject, type Project } from '../../src/projects/projects.js';
import { createApiKey, type Scope } from '../../src/keys/api-keys.js';
import { createTestDatabase, type Provider } from './databases.js';
import { Analytics } from '../../src/analytics/analytics.js';
import type { Outcomes } from '../../src/outcomes/outcomes.js';

/** Services a test app's routes may be given, made from its context on first use and closed with it. */
export interface TestServices {
  analytics: Analytics;
}

export interface TestApp {
  url: string;
  /** the express app itself (for route introspection) */
  app: Express;
  ctx: AppContext;
  services: TestServices;
  /** creates a project and returns it */
  project(input?: {
    repository?: string;
    ref?: string;
    hostnames?: string[];
    installationId?: number;
  }): Promise<Project>;
  /** creates a key (project-bound unless projectId is null) and returns the full key */
  key(projectId: string | null, scope: Scope, expiresInDays?: number): Promise<string>;
  close(): Promise<void>;
}

let repoCounter = 0;

/** Event notifiers made by jobRoutes, closed with their app. */
const notifiers = new WeakMap<AppContext, JobEventNotifier>();

/** The agent-job routes as main.ts mounts them, with requests and an event notifier made from the app's context. */
export function jobRoutes(
  options: { wake?: () => void; outcomes?: (ctx: AppContext) => Pick<Outcomes, 'ofJob'> } = {},
): RouteModule {
  return (router, ctx) => {
    const jobs = createJobRequests({
      db: ctx.db,
      clock: ctx.clock,
      jobs: ctx.config.jobs,
      missing: missingForAgentJobs(ctx.config),
      wake: options.wake ?? (() => undefined),
    });
    const events = createJobEventNotifier({ db: ctx.db, database: ctx.database, logger: ctx.logger });
    notifiers.set(ctx, events);
    agentJobRoutes({ jobs, events, outcomes: options.outcomes?.(ctx) })(router, ctx);
  };
}

/**
 * The real express app (request ids, error mapping, auth) with the given route modules, on a migrated
 * throwaway database of the given provider, listening on a random loopback port.
 */
export async function startTestApp(params: {
  provider: Provider;
  /** route modules, or a function of the app's services that returns them (as main.ts wires them) */
  routes: RouteModule[] | ((services: TestServices) => RouteModule[]);
  env?: Record<string, string>;
  clock?: Clock;
  webhooks?: RequestHandler;
}): Promise<TestApp> {
  const database = await createTestDatabase(params.provider);
  const config: Config = {
    ...loadConfig({ SCRIBE_HTTP_KEEP_ALIVE_TIMEOUT: String(TEST_KEEP_ALIVE_SECONDS), ...params.env }),
    database: database.target,
  };
  const ctx: AppContext = {
    config,
    db: database.db,
    database: database.target,
    clock: params.clock ?? (() => new Date()),
    logger: createLogger('silent'),
    secret: 'test-secret-test-secret-test-secret-0123',
  };
  let analytics: Analytics | undefined;
  const services: TestServices = {
    get analytics() {
      analytics ??= new Analytics({
        target: ctx.database,
        secret: ctx.secret,
        config: ctx.config.analytics,
        logger: ctx.logger,
        clock: ctx.clock,
      });
      return analytics;
    },
  };
  const app = createHttpApp({
    ctx,
    routes: typeof params.routes === 'function' ? params.routes(services) : params.routes,
    webhooks:
      params.webhooks ?? ((_req, res) => void res.status(503).json({ error: 'webhooks not configured in this test' })),
    webhookBodyLimit: MAX_DELIVERY_BYTES,
  });
  const server: Server = await new Promise((resolve) => {
    const s = createHttpServer(app, config.httpTimeouts).listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    ctx,
    services,
    project: (input = {}) =>
      addProject({
        db: ctx.db,
        clock: ctx.clock,
        repository: input.repository ?? `acme/docs-${process.pid}-${++repoCounter}`,
        ref: input.ref ?? 'main',
        hostnames: input.hostnames ?? ['docs.example.com'],
        installationId: input.installationId ?? null,
      }),
    key: async (projectId, scope, expiresInDays) =>
      (await createApiKey({ db: ctx.db, clock: ctx.clock, projectId, scope, expiresInDays })).key,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // the analytics service has its own connection; it must be gone before the database is
      await analytics?.close();
      await notifiers.get(ctx)?.close();
      await database.drop();
    },
  };
}
