import { jest } from '@jest/globals';
import { openDatabase } from '../../src/db/client.js';
import { IDLE_CONNECTION_MS } from '../../src/db/connection-pool.js';
import { createMigratedDatabase, type TestDatabase } from '../support/databases.js';

describe('the application database on postgresql, idle', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createMigratedDatabase('postgresql');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('keeps an idle connection (its server process) for minutes, not ten seconds', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const { db, close } = openDatabase(database.target);
    try {
      const backend = async () =>
        Number((await db.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0].pid);
      const first = await backend();
      // pg's pool closes a connection idle for ten seconds unless told otherwise
      jest.advanceTimersByTime(60_000);
      expect(await backend()).toBe(first);
      jest.advanceTimersByTime(IDLE_CONNECTION_MS + 1);
      expect(await backend()).not.toBe(first);
    } finally {
      jest.useRealTimers();
      await close();
    }
  });
});
