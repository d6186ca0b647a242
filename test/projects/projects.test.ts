import { PROVIDERS, useTestDatabase } from '../support/databases.js';
import { fixedClock } from '../support/clock.js';
import {
  addProject,
  findProject,
  findProjectByRepository,
  getProject,
  listProjects,
  removeProject,
} from '../../src/projects/projects.js';
import { Conflict, Invalid, NotFound } from '../../src/errors.js';

describe.each(PROVIDERS)('projects on %s', (provider) => {
  const database = useTestDatabase(provider);
  const clock = fixedClock('2026-11-23T09:00:00.000Z');

  it('adds a project with its hostnames lower-cased and de-duplicated, and finds it by id and repository', async () => {
    const project = await addProject({
      db: database.db,
      clock,
      repository: 'acme/docs',
      ref: 'main',
      hostnames: ['Docs.Acme.com', 'docs.acme.com', 'localhost:3000'],
    });
    expect(project).toMatchObject({
      repository: 'acme/docs',
      ref: 'main',
      hostnames: ['docs.acme.com', 'localhost:3000'],
      source: 'manual',
      installationId: null,
      disabledAt: null,
      createdAt: clock(),
    });
    expect(project.id).toMatch(/^prj_/);
    expect(await findProject(database.db, project.id)).toEqual(project);
    // ids a browser may send that no column holds find nothing (PostgreSQL would refuse the query itself)
    for (const id of [`${project.id}\u0000`, '\u0000', `${project.id}\ud800`])
      expect(await findProject(database.db, id)).toBeNull();
    expect(await findProjectByRepository(database.db, 'acme/docs')).toEqual(project);
    expect((await listProjects(database.db)).map((p) => p.id)).toContain(project.id);
  });

  it('refuses a second project for a repository, and invalid input with one detail per problem', async () => {
    await addProject({ db: database.db, clock, repository: 'acme/twice', ref: 'main' });
    await expect(addProject({ db: database.db, clock, repository: 'acme/twice', ref: 'main' })).rejects.toThrow(
      Conflict,
    );
    const invalid = addProject({
      db: database.db,
      clock,
      repository: 'not a repo',
      ref: '-bad..ref',
      hostnames: ['bad host'],
    });
    await expect(invalid).rejects.toThrow(Invalid);
    await expect(invalid).rejects.toMatchObject({
      details: [
        { message: 'repository must be owner/name' },
        { message: 'ref must be a valid branch name' },
        { message: 'hostname "bad host" is not a valid host name' },
      ],
    });
  });

  it('removes a project, after which it is not found', async () => {
    const project = await addProject({ db: database.db, clock, repository: 'acme/gone', ref: 'main' });
    expect(await removeProject(database.db, project.id)).toEqual(project);
    expect(await findProject(database.db, project.id)).toBeNull();
    await expect(getProject(database.db, project.id)).rejects.toThrow(NotFound);
    await expect(removeProject(database.db, project.id)).rejects.toThrow(NotFound);
  });
});
