import { Webhook } from 'standardwebhooks';
import { createJob } from '../../src/jobs/job-store.js';
import { createSubscription } from '../../src/notifications/subscriptions.js';
import { createTestDatabase, PROVIDERS } from '../support/databases.js';
import { scribeEnv, startScribeProcess, type ScribeProcess } from '../support/scribe-process.js';
import { waitFor } from '../support/wait-for.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

describe.each(PROVIDERS)('outgoing webhooks survive SIGKILL on %s', (provider) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let receiver: WebhookReceiver;
  const running: ScribeProcess[] = [];
  const start = async () => {
    const scribe = await startScribeProcess({
      env: scribeEnv({
        databaseUrl: database.target.url,
        // a short lease: the killed process's delivery is claimed again two seconds after it died
        extra: {
          SCRIBE_JOB_LEASE_SECONDS: '2',
          SCRIBE_WEBHOOKS_ALLOW_HTTP: 'true',
          SCRIBE_WEBHOOKS_ALLOWED_HOSTS: '127.0.0.1',
        },
      }),
    });
    running.push(scribe);
    return scribe;
  };

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    for (const scribe of running) await scribe.kill();
    await receiver?.close();
    await database?.drop();
  });

  it('a process killed mid-delivery: after a restart the event is delivered, under the same webhook-id', async () => {
    const clock = () => new Date();
    const policy = { allowHttp: true, allowedHosts: ['127.0.0.1'] };
    const projectId = 'prj_durable';
    const { secret } = await createSubscription(
      { db: database.db, clock, policy },
      { projectId, url: receiver.url, events: ['job.created'] },
    );
    // the first try reaches the receiver, which never answers: the process dies while it waits
    receiver.answer = (request) =>
      receiver.received.indexOf(request) === 0 ? { status: 200, hang: true } : { status: 200 };
    const first = await start();
    const job = await createJob({
      db: database.db,
      clock,
      projectId,
      repository: 'acme/docs',
      baseRef: 'main',
      branch: (id) => `scribe/${id}`,
      model: 'm',
      draft: false,
      prompt: 'Fix the typo',
    });
    await waitFor(() => receiver.received.length === 1, 'the first try to arrive', 30_000);
    await first.kill();
    const message = await database.db.webhookMessage.findFirstOrThrow({ where: { projectId } });
    expect(message).toMatchObject({ status: 'pending', attempts: 1 });
    expect(message.leaseOwner).not.toBeNull();

    await start();
    const delivered = await waitFor(
      async () => {
        const row = await database.db.webhookMessage.findUniqueOrThrow({ where: { id: message.id } });
        return row.status === 'delivered' ? row : null;
      },
      'the delivery after the restart',
      30_000,
    );
    expect(delivered.attempts).toBe(2);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([message.id, message.id]);
    const body = new Webhook(secret).verify(receiver.received[1].body, receiver.received[1].headers as never) as {
      type: string;
      data: { job: { id: string } };
    };
    expect(body).toMatchObject({ type: 'job.created', data: { job: { id: job.id } } });
    expect(await database.db.webhookEvent.count()).toBe(0);
  });
});
