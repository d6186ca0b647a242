import { openDatabase, type Database } from '../../src/db/client.js';
import { LeaseQueue, startHeartbeat, type LeaseHolder } from '../../src/db/lease-queue.js';
import { fixedClock } from '../support/clock.js';
import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { waitFor } from '../support/wait-for.js';

// The queue is tried on a table of its own, made here: nothing in it depends on a table of the application.
const CREATE = {
  sqlite: `CREATE TABLE "LeaseItem" ("id" TEXT PRIMARY KEY, "status" TEXT NOT NULL, "seq" INTEGER NOT NULL,
    "leaseOwner" TEXT, "leaseExpiresAt" DATETIME, "attempts" INTEGER NOT NULL DEFAULT 0, "touchedAt" DATETIME)`,
  postgresql: `CREATE TABLE "LeaseItem" ("id" TEXT PRIMARY KEY, "status" TEXT NOT NULL, "seq" INTEGER NOT NULL,
    "leaseOwner" TEXT, "leaseExpiresAt" TIMESTAMP(3), "attempts" INTEGER NOT NULL DEFAULT 0, "touchedAt" TIMESTAMP(3))`,
};

const items = new LeaseQueue({ table: 'LeaseItem', waiting: 'waiting', orderBy: 'seq', stamp: ['touchedAt'] });

describe.each(PROVIDERS)('the lease queue on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-22T00:00:00.000Z');
  const as = (owner: string, leaseMs = 1_000, db = database.db): LeaseHolder => ({
    db,
    database: database.target,
    clock,
    owner,
    leaseMs,
  });
  const add = async (count: number, status = 'waiting') => {
    for (let i = 0; i < count; i++)
      await database.db.$executeRawUnsafe(
        `INSERT INTO "LeaseItem" ("id", "status", "seq") VALUES ('r${String(i).padStart(3, '0')}', '${status}', ${count - i})`,
      );
  };
  const row = async (id: string) =>
    (
      await database.db.$queryRawUnsafe<{ leaseOwner: string | null; attempts: number; status: string }[]>(
        `SELECT "leaseOwner", "attempts", "status" FROM "LeaseItem" WHERE "id" = '${id}'`,
      )
    )[0];

  beforeAll(async () => {
    await database.db.$executeRawUnsafe(CREATE[provider]);
  });
  beforeEach(async () => {
    clock.set('2026-11-22T00:00:00.000Z');
    await database.db.$executeRawUnsafe(`DELETE FROM "LeaseItem"`);
  });

  it('never gives one row to two claimers, however many claim at once from separate connections', async () => {
    await add(60);
    // a second client is a second connection (a second pool on PostgreSQL): the claims really race
    const other: Database = openDatabase(database.target);
    try {
      const claimers = Array.from({ length: 8 }, (_, i) => as(`w${i}`, 60_000, i % 2 ? other.db : database.db));
      const taken = new Map<string, string>();
      let rounds = 0;
      for (;;) {
        const claims = await Promise.all(claimers.map((c) => items.claim({ ...c, limit: 3 })));
        const flat = claims.flatMap((rows, i) => rows.map((r) => ({ ...r, owner: claimers[i].owner })));
        if (!flat.length) break;
        for (const r of flat) {
          expect(taken.has(r.id)).toBe(false);
          taken.set(r.id, r.owner);
          expect(r.attempts).toBe(1);
        }
        rounds++;
      }
      expect(taken.size).toBe(60);
      expect(rounds).toBeGreaterThanOrEqual(3);
      for (const [id, owner] of taken) expect((await row(id)).leaseOwner).toBe(owner);
    } finally {
      await other.close();
    }
  });

  it('claims the oldest first, up to the limit, leaves other statuses alone and stamps the claim time', async () => {
    await add(3);
    await database.db.$executeRawUnsafe(`INSERT INTO "LeaseItem" ("id", "status", "seq") VALUES ('done', 'done', 0)`);
    expect((await items.claim({ ...as('a'), limit: 2 })).map((r) => r.id).sort()).toEqual(['r001', 'r002']);
    expect(await items.claim({ ...as('a'), limit: 0 })).toEqual([]);
    expect((await items.claim({ ...as('b'), limit: 5 })).map((r) => r.id)).toEqual(['r000']);
    const [stamped] = await database.db.$queryRawUnsafe<{ touchedAt: Date | string }[]>(
      `SELECT "touchedAt" FROM "LeaseItem" WHERE "id" = 'r000'`,
    );
    expect(new Date(stamped.touchedAt).toISOString()).toBe(clock().toISOString());
    expect(await row('done')).toMatchObject({ leaseOwner: null, attempts: 0 });
  });

  it('hands a row over only once its lease expired, counting the attempt', async () => {
    await add(1);
    await items.claim({ ...as('a'), limit: 1 });
    clock.advance(999);
    expect(await items.claim({ ...as('b'), limit: 1 })).toEqual([]);
    expect(await items.renew({ ...as('a'), id: 'r000' })).toBe(true);
    clock.advance(999);
    expect(await items.claim({ ...as('b'), limit: 1 })).toEqual([]);
    clock.advance(2);
    expect(await items.claim({ ...as('b'), limit: 1 })).toEqual([{ id: 'r000', attempts: 2 }]);
    expect(await row('r000')).toMatchObject({ leaseOwner: 'b', attempts: 2 });
  });

  it('refuses a renewal or release by a holder that lost its lease, and one of a row that left the queue', async () => {
    await add(2);
    await items.claim({ ...as('a'), limit: 2 });
    clock.advance(1_001);
    await items.claim({ ...as('b'), limit: 1 });
    expect(await items.renew({ ...as('a'), id: 'r001' })).toBe(false);
    expect(await items.release({ ...as('a'), id: 'r001' })).toBe(false);
    expect(await items.release({ ...as('a'), id: 'r001', refund: true })).toBe(false);
    expect(await row('r001')).toMatchObject({ leaseOwner: 'b', attempts: 2 });
    expect(await items.renew({ ...as('nobody'), id: 'r001' })).toBe(false);
    // the holder's own write that ends the row takes it out of the queue: the lease is then nothing to renew
    await database.db.$executeRawUnsafe(`UPDATE "LeaseItem" SET "status" = 'done' WHERE "id" = 'r001'`);
    expect(await items.renew({ ...as('b'), id: 'r001' })).toBe(false);
    expect(await items.release({ ...as('b'), id: 'r001' })).toBe(false);
  });

  it('releases a row for a retry after a wait, or at once with the attempt given back', async () => {
    await add(2);
    await items.claim({ ...as('a', 60_000), limit: 2 });
    const retryAt = new Date(clock().getTime() + 5_000);
    expect(await items.release({ ...as('a'), id: 'r000', retryAt })).toBe(true);
    expect(await items.release({ ...as('a'), id: 'r001', refund: true })).toBe(true);
    expect(await row('r001')).toMatchObject({ leaseOwner: null, attempts: 0 });
    expect(await items.claim({ ...as('b', 60_000), limit: 2 })).toEqual([{ id: 'r001', attempts: 1 }]);
    clock.advance(5_001);
    expect(await items.claim({ ...as('b'), limit: 2 })).toEqual([{ id: 'r000', attempts: 2 }]);
  });

  it('leaves out the rows of the keys a claimer skips', async () => {
    await add(6);
    await database.db.$executeRawUnsafe(`UPDATE "LeaseItem" SET "status" = 'waiting'`);
    const skipSome = { column: 'id', values: ['r005', 'r004', 'r003'] };
    const claimed = await items.claim({ ...as('a'), limit: 10, skip: skipSome });
    expect(claimed.map((r) => r.id).sort()).toEqual(['r000', 'r001', 'r002']);
    const rest = await items.claim({ ...as('a'), limit: 10, skip: { column: 'id', values: ['r005'] } });
    expect(rest.map((r) => r.id).sort()).toEqual(['r003', 'r004']);
  });

  it('gives the WHERE of the holder’s own writes: the row, its owner and the waiting status', () => {
    expect(items.held('r000', 'a')).toEqual({ id: 'r000', leaseOwner: 'a', status: 'waiting' });
  });
});

const CREATE_DUE = {
  sqlite: `CREATE TABLE "DueItem" ("id" TEXT PRIMARY KEY, "status" TEXT NOT NULL, "key" TEXT NOT NULL,
    "leaseOwner" TEXT, "leaseExpiresAt" DATETIME, "dueAt" DATETIME NOT NULL, "attempts" INTEGER NOT NULL DEFAULT 0);
    CREATE INDEX "DueItem_key_status_dueAt" ON "DueItem" ("key", "status", "dueAt")`,
  postgresql: `CREATE TABLE "DueItem" ("id" TEXT PRIMARY KEY, "status" TEXT NOT NULL, "key" TEXT NOT NULL,
    "leaseOwner" TEXT, "leaseExpiresAt" TIMESTAMP(3), "dueAt" TIMESTAMP(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0); CREATE INDEX "DueItem_key_status_dueAt" ON "DueItem" ("key", "status", "dueAt")`,
};

const dueItems = new LeaseQueue({ table: 'DueItem', waiting: 'waiting', orderBy: 'id', due: 'dueAt' });

describe.each(PROVIDERS)('a lease queue with a due column on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-22T00:00:00.000Z');
  const as = (owner: string, leaseMs = 1_000): LeaseHolder => ({
    db: database.db,
    database: database.target,
    clock,
    owner,
    leaseMs,
  });
  const add = (id: string, key: string, dueInMs: number) =>
    database.db.$executeRawUnsafe(
      `INSERT INTO "DueItem" ("id", "status", "key", "dueAt") VALUES ('${id}', 'waiting', '${key}', ${provider === 'postgresql' ? '$1::timestamp(3)' : '?'})`,
      new Date(clock().getTime() + dueInMs),
    );
  const dueOf = async (id: string) =>
    new Date(
      (
        await database.db.$queryRawUnsafe<{ dueAt: Date | string }[]>(
          `SELECT "dueAt" FROM "DueItem" WHERE "id" = '${id}'`,
        )
      )[0].dueAt,
    ).getTime();
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

  beforeAll(async () => {
    for (const statement of CREATE_DUE[provider].split(';')) await database.db.$executeRawUnsafe(statement);
  });
  beforeEach(async () => {
    clock.set('2026-11-22T00:00:00.000Z');
    await database.db.$executeRawUnsafe(`DELETE FROM "DueItem"`);
  });

  it('claims the rows due now, earliest due first, and only those of the key asked for', async () => {
    await add('a-late', 'a', 5_000);
    await add('a-2', 'a', -1_000);
    await add('a-1', 'a', -2_000);
    await add('b-1', 'b', -3_000);
    const onlyA = { column: 'key', value: 'a' };
    expect(ids(await dueItems.claim({ ...as('w', 60_000), limit: 1, only: onlyA }))).toEqual(['a-1']);
    expect(ids(await dueItems.claim({ ...as('w', 60_000), limit: 10, only: onlyA }))).toEqual(['a-2']);
    expect(ids(await dueItems.claim({ ...as('w', 60_000), limit: 10, only: { column: 'key', value: 'b' } }))).toEqual([
      'b-1',
    ]);
    clock.advance(5_000);
    expect(ids(await dueItems.claim({ ...as('w', 60_000), limit: 10, only: { column: 'key', value: 'a' } }))).toEqual([
      'a-late',
    ]);
  });

  it('keeps the due time: the lease’s end while held (a dead holder’s row comes back), the retry time or now after', async () => {
    await add('x', 'k', 0);
    await add('y', 'k', 0);
    const start = clock().getTime();
    await dueItems.claim({ ...as('dead', 1_000), limit: 2 });
    expect(await dueOf('x')).toBe(start + 1_000);
    expect(await dueItems.renew({ ...as('dead', 4_000), id: 'y' })).toBe(true);
    expect(await dueOf('y')).toBe(start + 4_000);
    expect(await dueItems.claim({ ...as('other'), limit: 2 })).toEqual([]);
    clock.advance(1_000);
    expect(await dueItems.claim({ ...as('other', 60_000), limit: 2 })).toEqual([{ id: 'x', attempts: 2 }]);
    const retryAt = new Date(clock().getTime() + 30_000);
    expect(await dueItems.release({ ...as('other'), id: 'x', retryAt })).toBe(true);
    expect(await dueOf('x')).toBe(retryAt.getTime());
    clock.advance(3_000);
    expect(await dueItems.claim({ ...as('third', 60_000), limit: 2 })).toEqual([{ id: 'y', attempts: 2 }]);
    expect(await dueItems.release({ ...as('third'), id: 'y', now: clock(), refund: true })).toBe(true);
    expect(await dueOf('y')).toBe(clock().getTime());
    await expect(dueItems.release({ ...as('third'), id: 'y' })).rejects.toThrow(/needs retryAt or now/);
  });
});

describe('the lease queue', () => {
  it('takes only plain SQL identifiers', () => {
    expect(() => new LeaseQueue({ table: 'Job"; DROP TABLE x; --', waiting: 'w', orderBy: 'id' })).toThrow(
      /not a plain SQL identifier/,
    );
  });
});

describe('startHeartbeat', () => {
  it('renews on every beat while held, then says once why the lease was lost and stops', async () => {
    const answers: (true | 'archived')[] = [true, true, 'archived'];
    let renewals = 0;
    const lost: string[] = [];
    const heartbeat = startHeartbeat<'archived'>({
      everyMs: 5,
      renew: async () => answers[renewals++] ?? true,
      lost: (why) => lost.push(why),
      failed: (err) => {
        throw err;
      },
    });
    await waitFor(() => lost.length > 0, 'the lease to be reported lost');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(lost).toEqual(['archived']);
    expect(renewals).toBe(3);
    heartbeat.stop();
  });

  it('runs a beat asked for during a renewal once that renewal ends, and reports failures without stopping', async () => {
    const gates: (() => void)[] = [];
    const errors: unknown[] = [];
    let renewals = 0;
    const heartbeat = startHeartbeat({
      everyMs: 60_000,
      renew: () => {
        renewals++;
        if (renewals === 2) return Promise.reject(new Error('database away'));
        return new Promise<true>((resolve) => gates.push(() => resolve(true)));
      },
      failed: (err) => errors.push(err),
    });
    heartbeat.beat();
    heartbeat.beat();
    heartbeat.beat();
    expect(renewals).toBe(1);
    gates[0]();
    await waitFor(() => errors.length === 1, 'the second renewal to fail');
    expect(renewals).toBe(2);
    heartbeat.beat();
    await waitFor(() => renewals === 3, 'a beat after a failure');
    heartbeat.stop();
    gates[1]?.();
    heartbeat.beat();
    expect(renewals).toBe(3);
  });
});
