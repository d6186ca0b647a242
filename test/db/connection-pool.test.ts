import { openDatabase } from '../../src/db/client.js';
import { expectIdleConnectionKept } from '../support/idle-connections.js';
import { useTestDatabase } from '../support/databases.js';

describe('the application database on postgresql, idle', () => {
  const database = useTestDatabase('postgresql');

  it('keeps an idle connection (its server process) for minutes, not ten seconds', async () => {
    // a pool of its own: the test database's shared one must not have its timers faked
    const { db, close } = openDatabase(database.target);
    await expectIdleConnectionKept(
      async () => Number((await db.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0].pid),
      close,
    );
  });
});
