import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { retryWhileBusy } from '../../../src/analytics/store/sqlite-busy.js';
import { openSql } from '../../../src/analytics/store/sql.js';
import { useTestDatabase } from '../../support/databases.js';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

describe('retryWhileBusy', () => {
  it('tries again while SQLite answers busy, and returns what the statement returns', async () => {
    let tries = 0;
    const statement = () => {
      if (++tries < 4) throw busy();
      return 'done';
    };
    expect(await retryWhileBusy(statement)).toBe('done');
    expect(tries).toBe(4);
  });

  it('passes any other error on at once, and a busy one once its time is up', async () => {
    let tries = 0;
    const broken = () => {
      tries++;
      throw Object.assign(new Error('no such table'), { code: 'SQLITE_ERROR' });
    };
    await expect(retryWhileBusy(broken)).rejects.toThrow('no such table');
    expect(tries).toBe(1);
    const alwaysBusy = () => {
      throw busy();
    };
    await expect(retryWhileBusy(alwaysBusy, 20)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
  });
});

// better-sqlite3 waits for a lock synchronously, so the event loop stood still while it waited: a lock held by
// anything that needs the event loop to let go (a timer here, Prisma's interactive transaction below) was only ever
// released by the 10 s timeout, and then the analytics write failed.
describe('analytics SQLite connection waiting for a lock held in this process', () => {
  it('waits for another connection to commit and then writes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scribe-busy-'));
    const filePath = path.join(dir, 'busy.db');
    const other = new Database(filePath);
    other.exec('CREATE TABLE "t" ("v" TEXT)');
    const sql = openSql({ provider: 'sqlite', url: `file:${filePath}`, filePath });
    try {
      other.exec('BEGIN IMMEDIATE');
      other.prepare('INSERT INTO "t" VALUES (?)').run('first');
      const released = sleep(100).then(() => other.exec('COMMIT'));
      await sql.transaction((tx) => tx.run('INSERT INTO "t" VALUES (?)', ['second']));
      await released;
      expect(await sql.query('SELECT "v" FROM "t" ORDER BY rowid')).toEqual([{ v: 'first' }, { v: 'second' }]);
    } finally {
      await sql.close();
      other.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('beside Prisma', () => {
    const database = useTestDatabase('sqlite');

    it('commits while a Prisma interactive transaction (like a job claim) is between two statements', async () => {
      const sql = openSql(database.target);
      try {
        let readDone!: () => void;
        const read = new Promise<void>((resolve) => (readDone = resolve));
        const claim = database.db.$transaction(async (tx) => {
          await tx.project.findMany();
          readDone();
          await sleep(100);
          return tx.project.count();
        });
        await read;
        await sql.transaction((tx) =>
          tx.run('INSERT INTO "AnalyticsPage" ("projectId", "path") VALUES (?, ?)', ['p_busy', '/locked']),
        );
        await claim;
        expect(await sql.query('SELECT "path" FROM "AnalyticsPage" WHERE "projectId" = ?', ['p_busy'])).toEqual([
          { path: '/locked' },
        ]);
      } finally {
        await sql.close();
      }
    });
  });
});
