import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';
import { isUniqueViolation } from '../../src/db/unique-violation.js';

/** What `write` threw; fails the test when it did not throw. */
async function thrownBy(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (err) {
    return err;
  }
  throw new Error('expected the write to be refused');
}

describe.each(PROVIDERS)('isUniqueViolation on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-23T12:00:00.000Z');

  it('recognises a second row with the same primary key', async () => {
    const delivery = { id: 'delivery-1', event: 'push', action: null, status: 'received', receivedAt: clock() };
    await database.db.webhookDelivery.create({ data: delivery });
    expect(isUniqueViolation(await thrownBy(() => database.db.webhookDelivery.create({ data: delivery })))).toBe(true);
  });

  it('recognises a unique index over several columns refusing a row inside a transaction', async () => {
    const run = {
      projectId: 'prj_1',
      automationId: 'nightly',
      dedupeKey: 'schedule:2026-11-23T03:00:00.000Z',
      trigger: 'schedule',
      summary: 'Scheduled run',
      status: 'running',
      createdAt: clock(),
      updatedAt: clock(),
    };
    await database.db.automationRun.create({ data: { id: 'arun_1', ...run } });
    const err = await thrownBy(() =>
      database.db.$transaction([database.db.automationRun.create({ data: { id: 'arun_2', ...run } })]),
    );
    expect(isUniqueViolation(err)).toBe(true);
  });

  it("recognises the database's own text where Prisma gives no P2002 (a raw insert)", async () => {
    const insert = `INSERT INTO "WebhookDelivery" ("id", "event", "status", "receivedAt") VALUES ('raw-1', 'push', 'received', ${
      provider === 'postgresql' ? 'now()' : '0'
    })`;
    await database.db.$executeRawUnsafe(insert);
    const err = await thrownBy(() => database.db.$executeRawUnsafe(insert));
    expect((err as { code?: unknown }).code).not.toBe('P2002');
    expect(isUniqueViolation(err)).toBe(true);
  });

  it('is false for other refusals, however near the word "unique" they are thrown, and for non-errors', async () => {
    // Prisma's message quotes the calling source, which here names isUniqueViolation
    const missing = await thrownBy(() =>
      database.db.webhookDelivery.update({ where: { id: 'no-such-delivery' }, data: { status: 'done' } }),
    );
    expect(isUniqueViolation(missing)).toBe(false);
    expect(isUniqueViolation(new Error('connection refused'))).toBe(false);
    expect(isUniqueViolation(new Error('findUnique() found no record'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
    expect(isUniqueViolation('boom')).toBe(false);
  });
});
