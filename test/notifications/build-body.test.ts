import { buildBody, MAX_BODY_BYTES } from '../../src/notifications/build-body.js';

const at = new Date('2026-11-22T10:00:00.000Z');
const render = ({ data }: { data: Record<string, unknown> }) => ({
  data: { job: data.job },
  link: 'https://scribe.example.com/v2/agent/prj/job/job_1',
});

describe('buildBody', () => {
  it('wraps the rendered object in the versioned envelope, the same bytes every time', () => {
    const params = { type: 'job.created', eventAt: at, projectId: 'prj', data: { job: { id: 'job_1' } }, render };
    const body = buildBody(params);
    expect(JSON.parse(body)).toEqual({
      type: 'job.created',
      timestamp: '2026-11-22T10:00:00.000Z',
      version: 1,
      data: { job: { id: 'job_1' } },
    });
    expect(buildBody(params)).toBe(body);
  });

  it('replaces an object that would pass 256 KB by a pointer to it in the API', () => {
    const huge = { job: { id: 'job_1', summary: 'x'.repeat(MAX_BODY_BYTES) } };
    const body = buildBody({
      type: 'job.status_changed',
      eventAt: at,
      projectId: 'prj',
      data: huge,
      render: ({ data }) => ({
        data: { id: 'job_1', ...data },
        link: 'https://scribe.example.com/v2/agent/prj/job/job_1',
      }),
    });
    expect(Buffer.byteLength(body)).toBeLessThan(1024);
    expect(JSON.parse(body)).toEqual({
      type: 'job.status_changed',
      timestamp: '2026-11-22T10:00:00.000Z',
      version: 1,
      data: { truncated: true, id: 'job_1', link: 'https://scribe.example.com/v2/agent/prj/job/job_1' },
    });
  });
});
