import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';
import { claimDraft, draftsOfPull, findDraftByJob, updateDraft } from '../../src/reviews/docs-draft-store.js';

describe.each(PROVIDERS)('docs draft store on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-24T12:00:00.000Z');
  const key = (number: number, automationId = 'review-api') => ({
    projectId: 'prj_1',
    automationId,
    repository: 'acme/api',
    number,
  });

  it('creates one draft per source pull request and automation, however many ask at once', async () => {
    const results = await Promise.all(
      ['mia', 'dana', 'rob', 'olga', 'sam'].map((who) =>
        claimDraft({ db: database.db, clock, key: key(1), requestedBy: who, pages: ['cli.md'] }),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.draft.id)).size).toBe(1);
    expect(results[0].draft).toMatchObject({ jobId: null, pages: ['cli.md'], sourceState: 'open' });
    // another automation following the same pull request has a draft of its own
    expect(
      (await claimDraft({ db: database.db, clock, key: key(1, 'review-cli'), requestedBy: 'mia', pages: [] })).created,
    ).toBe(true);
    expect((await draftsOfPull(database.db, 'acme/api', 1)).map((d) => d.automationId)).toEqual([
      'review-api',
      'review-cli',
    ]);
    expect(await draftsOfPull(database.db, 'acme/api', 2)).toEqual([]);
  });

  it('keeps the job, the pages and the state the draft was brought to', async () => {
    const { draft } = await claimDraft({ db: database.db, clock, key: key(3), requestedBy: 'mia', pages: [] });
    await updateDraft({ db: database.db, clock, id: draft.id, data: { jobId: 'job_3', pages: ['a.md', 'b.mdx'] } });
    const merged = await updateDraft({ db: database.db, clock, id: draft.id, data: { sourceState: 'merged' } });
    expect(merged).toMatchObject({ jobId: 'job_3', pages: ['a.md', 'b.mdx'], sourceState: 'merged' });
    expect((await findDraftByJob(database.db, 'job_3'))?.id).toBe(draft.id);
    expect(await findDraftByJob(database.db, 'job_none')).toBeNull();
  });
});
