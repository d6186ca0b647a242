import { buildBody, MAX_BODY_BYTES, renderData } from '../../src/notifications/build-body.js';

const at = new Date('2026-11-22T10:00:00.000Z');
const link = 'https://scribe.example.com/v2/agent/prj/job/job_1';

describe('renderData and buildBody', () => {
  it('renders the object once, then wraps it in the versioned envelope, the same bytes every time', async () => {
    let renders = 0;
    const data = await renderData({
      type: 'job.created',
      eventAt: at,
      projectId: 'prj',
      data: { job: { id: 'job_1', secretish: 'not shown' } },
      render: async ({ data }) => {
        renders++;
        return { data: { job: { id: (data.job as { id: string }).id } }, link };
      },
    });
    const body = buildBody({ type: 'job.created', eventAt: at, data });
    expect(JSON.parse(body)).toEqual({
      type: 'job.created',
      timestamp: '2026-11-22T10:00:00.000Z',
      version: 1,
      data: { job: { id: 'job_1' } },
    });
    expect(buildBody({ type: 'job.created', eventAt: at, data })).toBe(body);
    expect(renders).toBe(1);
  });

  it('replaces an object that would pass 256 KB by a pointer to it in the API', async () => {
    const huge = { job: { id: 'job_1', summary: 'x'.repeat(MAX_BODY_BYTES) } };
    const data = await renderData({
      type: 'job.status_changed',
      eventAt: at,
      projectId: 'prj',
      data: huge,
      render: async ({ data }) => ({ data: { id: 'job_1', ...data }, link }),
    });
    const body = buildBody({ type: 'job.status_changed', eventAt: at, data });
    expect(Buffer.byteLength(body)).toBeLessThan(1024);
    expect(JSON.parse(body)).toEqual({
      type: 'job.status_changed',
      timestamp: '2026-11-22T10:00:00.000Z',
      version: 1,
      data: { truncated: true, id: 'job_1', link },
    });
  });
});
