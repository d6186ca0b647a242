import { createJob, archiveJob } from '../../src/jobs/job-store.js';
import { eventPresenter } from '../../src/http/present-event.js';
import { singleJobPresenter } from '../../src/http/routes/present-jobs.js';
import { createNotifier, type Notifier } from '../../src/notifications/notifier.js';
import { createSubscription } from '../../src/notifications/subscriptions.js';
import { recordDocsMerge } from '../../src/outcomes/merge-store.js';
import { recordPullRequestState } from '../../src/github/pull-request-state.js';
import type { Outcomes } from '../../src/outcomes/outcomes.js';
import { createLogger } from '../../src/logger.js';
import { PROVIDERS } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';
import { jobRoutes, startTestApp, type TestApp } from '../support/test-app.js';
import { outcomesFor } from '../support/outcome-routes.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { waitFor } from '../support/wait-for.js';

const policy = { allowHttp: true, allowedHosts: ['127.0.0.1'] };

describe.each(PROVIDERS)('job events carry the job as GET job answers it, on %s', (provider) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let notifier: Notifier | undefined;
  let outcomes: Pick<Outcomes, 'ofJob'>;
  const clock = fixedClock('2026-11-22T12:00:00.000Z');

  beforeAll(async () => {
    app = await startTestApp({
      provider,
      clock,
      routes: (services) => {
        const made = outcomesFor({ analytics: services.analytics });
        return [
          (router, ctx) => {
            outcomes = made.of(ctx);
            jobRoutes({ outcomes: made.of })(router, ctx);
          },
        ];
      },
    });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await notifier?.stop();
    await receiver.close();
    await app.close();
  });

  it('with its pull request state and its outcome once merged, byte for byte what the route returns', async () => {
    const { db, config } = app.ctx;
    const project = await app.project();
    const key = await app.key(project.id, 'write');
    await createSubscription({ db, clock, policy }, { projectId: project.id, url: receiver.url, events: ['*'] });
    const job = await createJob({
      db,
      clock,
      projectId: project.id,
      repository: project.repository,
      baseRef: 'main',
      branch: (id) => `scribe/${id}`,
      model: 'm',
      draft: false,
      prompt: 'Explain the setup',
    });
    // the run opened pull request #7 (as a finished run records it)
    await db.agentJob.update({
      where: { id: job.id },
      data: { prNumber: 7, prLink: `https://github.com/${project.repository}/pull/7` },
    });
    const mergedAt = new Date('2026-11-10T12:00:00.000Z');
    await recordPullRequestState({
      db,
      clock,
      jobId: job.id,
      repository: project.repository,
      number: 7,
      state: { state: 'closed', merged: true, mergedAt: mergedAt.toISOString() },
    });
    const merge = { jobId: job.id, projectId: project.id, repository: project.repository, number: 7, mergedAt };
    await recordDocsMerge({ db, clock, merge: { ...merge, pages: [{ path: '/guides/setup', change: 'edited' }] } });
    await archiveJob({ db, clock, projectId: project.id, jobId: job.id });
    notifier = createNotifier({
      db,
      database: app.ctx.database,
      clock,
      logger: createLogger('silent'),
      policy,
      render: eventPresenter({ config, presentJob: singleJobPresenter(app.ctx, outcomes) }),
      leaseMs: 30_000,
      heartbeatMs: 1_000,
      pollMs: 20,
    });
    notifier.start();
    await waitFor(() => receiver.received.length === 2, 'job.created and job.status_changed');
    const res = await fetch(`${app.url}/v2/agent/${project.id}/job/${job.id}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    const got = (await res.json()) as Record<string, unknown>;
    expect(got.outcome).not.toBeNull();
    expect(got.pr).toMatchObject({ state: 'closed', merged: true });
    const bodies = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: { job: unknown } });
    const changed = bodies.find((b) => b.type === 'job.status_changed');
    // the outcome and pull request state are read when the event is fanned out, by the route's own function
    expect(changed?.data.job).toEqual(got);
  });
});
