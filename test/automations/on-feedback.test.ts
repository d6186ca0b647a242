import { PROVIDERS } from '../support/databases.js';
import { useAutomations } from '../support/automations.js';
import type { FeedbackStored } from '../../src/analytics/signals/feedback-stored.js';
import type { Project } from '../../src/projects/projects.js';
import type { Automation } from '../../src/automations/parse-config.js';
import { startFeedbackRuns, type FeedbackReader } from '../../src/automations/on-feedback.js';

const READERS: Automation = {
  id: 'readers',
  on: { kind: 'feedback', thumbsDown: 2, comment: false, pages: ['/guides/**'] },
  prompt: 'Fix what readers report.',
  draft: false,
};

/** Page feedback kept in memory, read as the analytics service reads its table. */
function feedbackOf(project: Project) {
  const rows: { id: number; path: string; helpful: boolean; comment: string | null }[] = [];
  const after = (path: string, afterId: number) => rows.filter((r) => r.path === path && r.id > afterId);
  const reader: FeedbackReader = {
    async pageWindows({ pages }) {
      return new Map(
        pages.map(({ path, afterId }) => {
          const window = after(path, afterId);
          return [
            path,
            {
              through: window.at(-1)?.id ?? null,
              thumbsUp: window.filter((r) => r.helpful).length,
              thumbsDown: window.filter((r) => !r.helpful).length,
              comments: window.filter((r) => r.comment).length,
            },
          ];
        }),
      );
    },
    async pageThumbs(_projectId, path) {
      const page = after(path, 0);
      return { thumbsUp: page.filter((r) => r.helpful).length, thumbsDown: page.filter((r) => !r.helpful).length };
    },
    async pageComments({ path, afterId, throughId, limit }) {
      return after(path, afterId)
        .filter((r) => r.id <= throughId && r.comment)
        .slice(0, limit)
        .map((r) => ({ id: r.id, ts: 0, helpful: r.helpful, comment: r.comment! }));
    },
  };
  /** stores a thumbs-down on `path`, as the analytics service tells the automations */
  const thumbsDown = (path: string): FeedbackStored => {
    rows.push({ id: rows.length + 1, path, helpful: false, comment: null });
    return { projectId: project.id, rows: [{ id: rows.length, path, outcome: 'stored', newComment: false }] };
  };
  return { reader, thumbsDown };
}

describe.each(PROVIDERS)('startFeedbackRuns on %s', (provider) => {
  const bench = useAutomations(provider);

  it("starts one run when a page's feedback since its last run meets the trigger, logs it, and counts on from it", async () => {
    const project = await bench.project();
    await bench.loadAutomations(project, [READERS]);
    const { reader, thumbsDown } = feedbackOf(project);
    const deps = { ...bench.deps, feedback: reader };
    expect(await startFeedbackRuns(deps, thumbsDown('/guides/install'))).toEqual([]);
    const crossing = thumbsDown('/guides/install');
    const [run, ...more] = await startFeedbackRuns(deps, crossing);
    expect(more).toEqual([]);
    expect(run).toMatchObject({
      trigger: 'feedback',
      page: '/guides/install',
      feedbackThrough: 2,
      status: 'running',
      jobId: expect.stringMatching(/^job_/),
    });
    expect(run.change).toContain('2 thumbs-down (threshold: 2)');
    expect(bench.logs).toContainEqual(
      expect.objectContaining({
        msg: 'reader feedback started an automation run',
        run: run.id,
        page: '/guides/install',
      }),
    );
    // the same crossing seen again (another request, another process) starts nothing
    expect(await startFeedbackRuns(deps, crossing)).toEqual([]);
    // the next window starts after the run's last row
    expect(await startFeedbackRuns(deps, thumbsDown('/guides/install'))).toEqual([]);
    expect(await startFeedbackRuns(deps, thumbsDown('/guides/install'))).toMatchObject([{ feedbackThrough: 4 }]);
  });

  it('starts nothing for a page the automation does not follow, or a project with no feedback automation', async () => {
    const followed = await bench.project();
    await bench.loadAutomations(followed, [READERS]);
    const blog = feedbackOf(followed);
    for (let i = 0; i < 3; i++)
      expect(await startFeedbackRuns({ ...bench.deps, feedback: blog.reader }, blog.thumbsDown('/blog/news'))).toEqual(
        [],
      );
    const none = await bench.project();
    await bench.loadAutomations(none, []);
    const guides = feedbackOf(none);
    for (let i = 0; i < 3; i++)
      expect(
        await startFeedbackRuns({ ...bench.deps, feedback: guides.reader }, guides.thumbsDown('/guides/install')),
      ).toEqual([]);
    expect(await bench.deps.db.automationRun.count({ where: { projectId: { in: [followed.id, none.id] } } })).toBe(0);
  });
});
