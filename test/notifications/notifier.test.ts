import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import type { Clock } from '../../src/clock.js';
import { createJob, archiveJob, addMessage } from '../../src/jobs/job-store.js';
import { eventPresenter } from '../../src/http/present-event.js';
import { singleJobPresenter } from '../../src/http/routes/present-jobs.js';
import { createNotifier, type Notifier } from '../../src/notifications/notifier.js';
import { createSubscription, rotateSecret, getSubscription } from '../../src/notifications/subscriptions.js';
import { listDeliveries, redeliver } from '../../src/notifications/deliveries.js';
import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';
import { waitFor } from '../support/wait-for.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const policy = { allowHttp: true, allowedHosts: ['127.0.0.1'] };
const config = loadConfig({});

describe.each(PROVIDERS)('outgoing webhooks on %s', (provider) => {
  const database = useTestDatabase(provider);
  let receiver: WebhookReceiver;
  let notifier: Notifier | undefined;
  let projectId: string;
  let n = 0;

  const start = (clock: Clock, extra: Partial<Parameters<typeof createNotifier>[0]> = {}) => {
    notifier = createNotifier({
      db: database.db,
      database: database.target,
      clock,
      logger: createLogger((process.env.TEST_LOG as 'silent') ?? 'silent'),
      policy,
      render: eventPresenter({ config, presentJob: singleJobPresenter({ db: database.db, config }, null) }),
      leaseMs: 30_000,
      heartbeatMs: 1_000,
      pollMs: 20,
      random: () => 0.5,
      ...extra,
    });
    notifier.start();
    return notifier;
  };
  const subscribe = (clock: Clock, events = ['*']) =>
    createSubscription({ db: database.db, clock, policy }, { projectId, url: receiver.url, events });
  const newJob = (clock: Clock, prompt = 'Fix the typo') =>
    createJob({
      db: database.db,
      clock,
      projectId,
      repository: 'acme/docs',
      baseRef: 'main',
      branch: (id) => `scribe/${id}`,
      model: 'm',
      draft: false,
      prompt,
    });

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    projectId = `prj_${provider}_${++n}`;
  });
  afterEach(async () => {
    await notifier?.stop();
    notifier = undefined;
    await receiver.close();
  });

  it('delivers each change, signed so the reference library verifies it, carrying the job as the API shows it', async () => {
    const clock = () => new Date();
    const { secret } = await subscribe(clock);
    start(clock);
    const job = await newJob(clock);
    await addMessage({ db: database.db, clock, projectId, jobId: job.id, prompt: 'Also the title' });
    await archiveJob({ db: database.db, clock, projectId, jobId: job.id });
    await waitFor(
      async () => (await database.db.webhookMessage.count({ where: { projectId, status: 'delivered' } })) === 3,
      'three deliveries',
    );
    const bodies = receiver.received.map((r) => {
      const verified = new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
        type: string;
        version: number;
        timestamp: string;
        data: Record<string, unknown>;
      };
      expect(r.headers['webhook-id']).toMatch(/^msg_/);
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      return verified;
    });
    expect(bodies.map((b) => b.type).sort()).toEqual(['job.created', 'job.message_added', 'job.status_changed']);
    const created = bodies.find((b) => b.type === 'job.created')!;
    expect(created).toMatchObject({ version: 1, timestamp: job.createdAt.toISOString() });
    expect(created.data.job).toEqual({
      id: job.id,
      status: 'active',
      source: { repository: 'https://github.com/acme/docs', ref: job.branch },
      model: 'm',
      prLink: null,
      createdAt: job.createdAt.toISOString(),
      updatedAt: job.updatedAt.toISOString(),
      archivedAt: null,
      error: null,
      summary: null,
      usage: { inputTokens: 0, outputTokens: 0 },
      pr: null,
      prompt: 'Fix the typo',
      cause: null,
      outcome: null,
    });
    const changed = bodies.find((b) => b.type === 'job.status_changed')!;
    expect(changed.data).toMatchObject({ previousStatus: 'active', prLink: null, summary: null });
    expect(changed.data.job).toMatchObject({ status: 'archived' });
    expect(JSON.stringify(bodies)).not.toContain(secret.slice(6));
    const sub = (await database.db.webhookSubscription.findFirstOrThrow({ where: { projectId } })).id;
    const page = await listDeliveries({ db: database.db, projectId, subscriptionId: sub, limit: 10 });
    expect(page.deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(page.deliveries[0].tries[0]).toMatchObject({ attempt: 1, responseStatus: 200, responseBody: 'ok' });
  });

  it('sends only the events a subscription asked for, and nothing to a turned-off one', async () => {
    const clock = () => new Date();
    await subscribe(clock, ['job.status_changed']);
    start(clock);
    const job = await newJob(clock);
    await archiveJob({ db: database.db, clock, projectId, jobId: job.id });
    await waitFor(() => receiver.received.length >= 1, 'the status change');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['job.status_changed']);
  });

  it('retries a receiver that is down for hours with backoff, the same webhook-id each time, until it answers 2xx', async () => {
    const clock = fixedClock('2026-11-22T00:00:00.000Z');
    await subscribe(clock);
    receiver.answer = () => ({ status: 503 });
    start(clock);
    await newJob(clock);
    const tried = async (count: number) => waitFor(() => receiver.received.length >= count, `try ${count}`);
    await tried(1);
    const waits: number[] = [];
    // each retry is due only once its backoff has passed on the (injected) clock
    const released = () =>
      waitFor(async () => {
        const m = await database.db.webhookMessage.findFirstOrThrow({ where: { projectId } });
        return m.leaseOwner === null ? m : null;
      }, 'the try to be recorded');
    for (let attempt = 1; attempt <= 7; attempt++) {
      const m = await released();
      expect(receiver.received).toHaveLength(attempt);
      const wait = m.leaseExpiresAt!.getTime() - clock().getTime();
      waits.push(wait);
      clock.advance(wait + 1);
      notifier!.wake();
      await tried(attempt + 1);
    }
    expect(waits.slice(0, 4)).toEqual([5_000, 20_000, 80_000, 320_000]);
    expect(waits.every((w, i) => i === 0 || w >= waits[i - 1])).toBe(true);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    receiver.answer = () => ({ status: 204 });
    const m = await released();
    clock.set(new Date(m.leaseExpiresAt!.getTime() + 1));
    notifier!.wake();
    await waitFor(
      async () => (await database.db.webhookMessage.findFirstOrThrow({ where: { projectId } })).status === 'delivered',
      'the delivery once the receiver is back',
    );
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect((await getSubscription(database.db, projectId, m.subscriptionId)).failingSince).toBeNull();
  });

  it('gives up after 24 hours of failures, ends at once on a 4xx, and honours Retry-After on 429', async () => {
    const clock = fixedClock('2026-11-22T00:00:00.000Z');
    const { subscription } = await subscribe(clock);
    const status = async () => (await database.db.webhookMessage.findFirstOrThrow({ where: { projectId } })).status;
    receiver.answer = () => ({ status: 429, headers: { 'retry-after': '120' } });
    start(clock);
    await newJob(clock);
    await waitFor(() => receiver.received.length === 1, 'the first try');
    const m = await waitFor(async () => {
      const row = await database.db.webhookMessage.findFirstOrThrow({ where: { projectId } });
      return row.leaseOwner === null ? row : null;
    }, 'the try to be recorded');
    expect(m.leaseExpiresAt!.getTime() - clock().getTime()).toBe(120_000);
    receiver.answer = () => ({ status: 500 });
    for (let i = 0; i < 40 && (await status()) === 'pending'; i++) {
      const next = await database.db.webhookMessage.findFirstOrThrow({ where: { projectId } });
      if (next.leaseExpiresAt) clock.set(new Date(next.leaseExpiresAt.getTime() + 1));
      const tries = next.attempts;
      notifier!.wake();
      await waitFor(async () => {
        const row = await database.db.webhookMessage.findFirstOrThrow({ where: { projectId } });
        return row.status !== 'pending' || (row.attempts > tries && row.leaseOwner === null);
      }, 'a try');
    }
    expect(await status()).toBe('failed');
    expect(clock().getTime() - Date.parse('2026-11-22T00:00:00.000Z')).toBeLessThanOrEqual(24 * 3600_000);
    const page = await listDeliveries({ db: database.db, projectId, subscriptionId: subscription.id, limit: 1 });
    expect(page.deliveries[0].tries.at(-1)?.error).toMatch(/gave up after \d+ tries over 24 hours/);

    // a refusal is final; a redelivery sends it again under the same id
    receiver.answer = () => ({ status: 410 });
    await redeliver({ db: database.db, clock, projectId, subscriptionId: subscription.id, id: m.id });
    const before = receiver.received.length;
    notifier!.wake();
    await waitFor(async () => (await status()) === 'failed' && receiver.received.length === before + 1, 'refused');
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(m.id);
  });

  it('signs with both secrets for a day after a rotation, then with the new one only', async () => {
    let now = Date.now();
    const clock = () => new Date(now);
    const { subscription, secret: old } = await subscribe(clock);
    const { secret: fresh } = await rotateSecret({ db: database.db, clock }, projectId, subscription.id);
    start(clock);
    await newJob(clock);
    await waitFor(() => receiver.received.length === 1, 'a delivery');
    const first = receiver.received[0];
    expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const s of [old, fresh]) expect(() => new Webhook(s).verify(first.body, first.headers as never)).not.toThrow();
    // the clock jumps only once the first try is recorded: a jump past a held lease would hand it to another claim
    await waitFor(
      async () => (await database.db.webhookMessage.count({ where: { projectId, status: 'delivered' } })) === 1,
      'the first delivery to be recorded',
    );
    now += 24 * 3600_000 + 1000;
    await newJob(clock);
    await waitFor(() => receiver.received.length === 2, 'a second delivery');
    const second = receiver.received[1];
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1);
    // the reference library checks the timestamp against its own clock: the signature is checked by hand here
    const [, , signed] = [second.headers['webhook-id'], second.headers['webhook-timestamp'], second.body];
    const expected = new Webhook(fresh).sign(
      String(second.headers['webhook-id']),
      new Date(Number(second.headers['webhook-timestamp']) * 1000),
      signed,
    );
    expect(second.headers['webhook-signature']).toBe(expected);
  });

  it('refuses a target that resolves to a private address at delivery time (DNS rebinding), without connecting', async () => {
    const clock = () => new Date();
    let answer = '93.184.216.34';
    const resolve = async () => [{ address: answer, family: 4 }];
    const strict = { allowHttp: true, allowedHosts: [] };
    const { subscription } = await createSubscription(
      { db: database.db, clock, policy: strict, resolve },
      { projectId, url: 'http://hooks.example.test/x', events: ['*'] },
    );
    answer = '127.0.0.1';
    start(clock, { policy: strict, resolve });
    await newJob(clock);
    await waitFor(
      async () => (await database.db.webhookMessage.findFirst({ where: { projectId } }))?.status === 'failed',
      'the refusal',
    );
    const page = await listDeliveries({ db: database.db, projectId, subscriptionId: subscription.id, limit: 1 });
    expect(page.deliveries[0].tries).toHaveLength(1);
    expect(page.deliveries[0].tries[0].error).toMatch(/resolves to 127\.0\.0\.1/);
    expect(receiver.received).toHaveLength(0);
  });

  it('turns off a subscription whose deliveries failed for five days, and says why', async () => {
    const clock = fixedClock('2026-11-22T00:00:00.000Z');
    const { subscription } = await subscribe(clock);
    receiver.answer = () => ({ status: 404 });
    start(clock);
    for (let day = 0; day <= 5; day++) {
      await newJob(clock);
      const before = receiver.received.length;
      await waitFor(() => receiver.received.length > before, `day ${day}'s delivery`);
      await waitFor(
        async () => (await database.db.webhookMessage.count({ where: { projectId, status: 'pending' } })) === 0,
        'its end',
      );
      clock.advance(24 * 3600_000);
    }
    const off = await getSubscription(database.db, projectId, subscription.id);
    expect(off).toMatchObject({ enabled: false });
    expect(off.disabledReason).toMatch(/failed for 5 days/);
    const before = receiver.received.length;
    await newJob(clock);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(before);
  });

  it('keeps a healthy receiver going while a slow one has a backlog and every send slot is taken', async () => {
    const clock = () => new Date();
    const slow = await startWebhookReceiver();
    try {
      slow.answer = () => ({ status: 200, delayMs: 150 });
      await createSubscription({ db: database.db, clock, policy }, { projectId, url: slow.url, events: ['*'] });
      // the slow receiver's backlog is written first: oldest-first claims would hand it every slot until it drained
      for (let i = 0; i < 20; i++) await newJob(clock, `Backlog ${i}`);
      start(clock, { concurrency: 2 });
      await waitFor(() => slow.received.length >= 1, 'the slow receiver’s first message');
      const { subscription: healthy } = await subscribe(clock);
      await newJob(clock, 'For the healthy one');
      await waitFor(
        async () =>
          (await database.db.webhookMessage.count({ where: { subscriptionId: healthy.id, status: 'delivered' } })) ===
          1,
        'the healthy receiver’s message',
      );
      // it went out beside the backlog, not after it
      expect(receiver.received).toHaveLength(1);
      expect(slow.received.length).toBeLessThan(10);
    } finally {
      await notifier?.stop();
      notifier = undefined;
      await slow.close();
    }
  });

  it('claims each subscription’s messages by their due time, so a message retried later waits behind a new one', async () => {
    const clock = fixedClock('2026-11-22T00:00:00.000Z');
    const { subscription } = await subscribe(clock);
    let first = true;
    receiver.answer = () => {
      const status = first ? 503 : 200;
      first = false;
      return { status };
    };
    start(clock);
    await newJob(clock, 'First');
    await waitFor(
      async () =>
        (await database.db.webhookAttempt.count({
          where: { subscriptionId: subscription.id, responseStatus: 503 },
        })) === 1,
      'the failed try',
    );
    const retried = await database.db.webhookMessage.findFirstOrThrow({ where: { projectId } });
    expect(retried.status).toBe('pending');
    // due at its retry time, not at once
    expect(retried.dueAt.getTime()).toBeGreaterThan(clock().getTime());
    await newJob(clock, 'Second');
    await waitFor(() => receiver.received.length === 2, 'the new message');
    expect(JSON.parse(receiver.received[1].body).data.job.prompt).toBe('Second');
    clock.advance(retried.dueAt.getTime() - clock().getTime());
    await waitFor(() => receiver.received.length === 3, 'the retry once due');
    expect(receiver.received[2].headers['webhook-id']).toBe(retried.id);
  });
});
