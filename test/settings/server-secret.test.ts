import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';
import { resolveServerSecret } from '../../src/settings/server-secret.js';

describe.each(PROVIDERS)('server secret on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock();

  it('generates one secret on first use and keeps it, even when several start at once', async () => {
    const first = await Promise.all(
      Array.from({ length: 4 }, () => resolveServerSecret({ db: database.db, configured: undefined, clock })),
    );
    expect(new Set(first).size).toBe(1);
    expect(first[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(await resolveServerSecret({ db: database.db, configured: undefined, clock })).toBe(first[0]);
  });

  it('uses SCRIBE_SECRET when it is set, without touching the stored one', async () => {
    const stored = await resolveServerSecret({ db: database.db, configured: undefined, clock });
    expect(await resolveServerSecret({ db: database.db, configured: 'c'.repeat(32), clock })).toBe('c'.repeat(32));
    expect(await resolveServerSecret({ db: database.db, configured: undefined, clock })).toBe(stored);
  });
});
