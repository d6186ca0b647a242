import type { Project } from '../../projects/projects.js';
import { buildDocsSite, type DocsSite } from './docs-site.js';

/** Where a project's docs come from: its ref's head commit now, and the files at a commit. */
export interface DocsSource {
  headSha(project: Project): Promise<string>;
  files(project: Project, sha: string): Promise<{ path: string; text: string }[]>;
}

/** how often the ref's head is asked for between pushes: the push (invalidate) is what usually rebuilds */
const CHECK_EVERY_MS = 60_000;

interface Held {
  repository: string;
  site?: DocsSite;
  checkedAt: number;
  building?: Promise<DocsSite>;
}

/**
 * Each project's docs site at its ref, indexed once per commit and rebuilt when the ref moves: a push invalidates
 * the project at once, and the head is asked for again at most once a minute otherwise. Concurrent readers share
 * one build; a failed build keeps the site already held.
 */
export class DocsSites {
  private readonly held = new Map<string, Held>();

  constructor(private readonly params: { source: DocsSource; now: () => number }) {}

  async get(project: Project): Promise<DocsSite> {
    let held = this.held.get(project.id);
    if (!held) this.held.set(project.id, (held = { repository: project.repository.toLowerCase(), checkedAt: 0 }));
    const now = this.params.now();
    if (held.site && now - held.checkedAt < CHECK_EVERY_MS) return held.site;
    if (!held.building) {
      const entry = held;
      entry.building = (async () => {
        const sha = await this.params.source.headSha(project);
        entry.checkedAt = this.params.now();
        if (entry.site?.sha === sha) return entry.site;
        const site = buildDocsSite({ sha, files: await this.params.source.files(project, sha) });
        entry.site = site;
        return site;
      })().finally(() => {
        entry.building = undefined;
      });
    }
    try {
      return await held.building!;
    } catch (err) {
      if (held.site) return held.site;
      throw err;
    }
  }

  /** A push to a repository: its projects' sites are checked against the new head on their next read. */
  invalidate(repository: string): void {
    for (const held of this.held.values()) if (held.repository === repository.toLowerCase()) held.checkedAt = 0;
  }
}
