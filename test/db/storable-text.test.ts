import pg from 'pg';
import { createEmptyDatabase, PROVIDERS } from '../support/databases.js';
import { openSql } from '../../src/analytics/store/sql.js';
import { unstorableText, wellFormedText } from '../../src/db/storable-text.js';

describe('storable text', () => {
  it('names NUL and unpaired surrogates, and nothing else', () => {
    expect(unstorableText('a\u0000b')).toBe('must not contain a NUL character (U+0000)');
    for (const lone of ['\ud800', 'a\udbff', '\udc00b', '\ude00\ud83d'])
      expect([lone, unstorableText(lone)]).toEqual([lone, 'must not contain an unpaired surrogate (not Unicode text)']);
    for (const fine of ['', 'plain', '\ud83d\ude00 emoji', 'tab\tnewline\n\u0001\u007f', '\ufffd', '日本語'])
      expect([fine, unstorableText(fine)]).toEqual([fine, undefined]);
  });

  it('makes free text well formed: each unpaired surrogate becomes U+FFFD, pairs are kept', () => {
    expect(wellFormedText('a\ud800b\udc00\ud83d\ude00\ud83d')).toBe('a\ufffdb\ufffd\ud83d\ude00\ufffd');
    expect(wellFormedText('plain')).toBe('plain');
  });
});

describe.each(PROVIDERS)('what %s does with the text unstorableText names', (provider) => {
  it('refuses NUL (PostgreSQL) or changes an unpaired surrogate on the way in, so neither may reach it', async () => {
    const database = await createEmptyDatabase(provider);
    const sql = openSql(database.target);
    try {
      await sql.run('CREATE TABLE "t" ("v" TEXT)');
      const roundTrip = async (value: string) => {
        await sql.run('DELETE FROM "t"');
        await sql.run('INSERT INTO "t" ("v") VALUES (?)', [value]);
        return (await sql.query<{ v: string }>('SELECT "v" FROM "t"'))[0].v;
      };
      expect(await roundTrip('\ud83d\ude00 \ufffd')).toBe('\ud83d\ude00 \ufffd');
      expect(await roundTrip('a\ud800')).not.toBe('a\ud800');
      if (provider === 'postgresql') await expect(roundTrip('a\u0000b')).rejects.toBeInstanceOf(pg.DatabaseError);
      else expect(await roundTrip('a\u0000b')).toBe('a\u0000b');
    } finally {
      await sql.close();
      await database.drop();
    }
  });
});
