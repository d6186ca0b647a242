import { html } from 'htm/preact';
import { getJson, query } from './api.js';
import { Chart } from './chart.js';
import { DataTable, Figure, Loaded } from './components.js';
import { age, agentHref, change, jobHref, num, prLabel, rangeQuery, shownWindow } from './format.js';
import { useLoad } from './hooks.js';

/** One page's story in the range: who read it (against the previous range), what they said, missed and searched. */
export function PageView({ range, params }) {
  const path = params.get('path') || '/';
  const page = useLoad(() => getJson(`/v1/analytics/{project}/page${query({ path, ...rangeQuery(range) })}`), []);
  return html`<p><a href="#overview">← overview</a></p>
    <h1>Page <code id="page-path">${path}</code></h1>
    <${Loaded} result=${page}>${(report) => html`<${Story} report=${report} />`}<//>`;
}

const vote = (helpful) => (helpful === true ? 'helpful' : helpful === false ? 'not helpful' : '–');

function Story({ report: r }) {
  const { totals, feedback } = r;
  return html`
    <section aria-labelledby="page-readers-title">
      <h2 id="page-readers-title">Readers <span class="quiet">against the previous range</span></h2>
      <div class="figures">
        <${Figure} id="page-human" label="Human visitors" value=${num(totals.human)} note=${`${change(totals.human, totals.previous.human)} (was ${num(totals.previous.human)})`} />
        <${Figure} id="page-ai" label="AI visitors" value=${num(totals.ai)} note=${`${change(totals.ai, totals.previous.ai)} (was ${num(totals.previous.ai)})`} />
        <${Figure} id="page-thumbs-down" label="Not helpful" value=${num(feedback.thumbsDown)} />
        <${Figure} id="page-thumbs-up" label="Helpful" value=${num(feedback.thumbsUp)} />
      </div>
      <${Chart}
        id="page-days"
        title="Distinct visitors of this page per day; dashed: the same day of the previous range"
        type="line"
        unit="visitors"
        labels=${r.days.map((d) => d.date)}
        datasets=${[
          { label: 'Human', data: r.days.map((d) => d.human), borderColor: '#0969da' },
          { label: 'AI', data: r.days.map((d) => d.ai), borderColor: '#8250df' },
          {
            label: 'Human, previous',
            data: r.days.map((d) => d.previous.human),
            borderColor: '#0969da',
            borderDash: [4, 4],
          },
          { label: 'AI, previous', data: r.days.map((d) => d.previous.ai), borderColor: '#8250df', borderDash: [4, 4] },
        ]}
      />
    </section>
    <section aria-labelledby="page-agents-title">
      <h2 id="page-agents-title">AI agents</h2>
      <${DataTable}
        id="page-agents"
        caption="AI agents that read this page"
        columns=${[{ label: 'Agent' }, { label: 'Purpose' }, { label: 'Views', num: true }, { label: 'Visitors', num: true }]}
        rows=${r.agents.map((a) => ({
          key: a.agent,
          href: agentHref(a.agent),
          cells: [html`<a href=${agentHref(a.agent)}>${a.agent}</a>`, a.purpose, num(a.views), num(a.visitors)],
        }))}
        empty=${html`<p>No AI agent read this page in this range.</p>`}
      />
    </section>
    <section aria-labelledby="page-feedback-title">
      <h2 id="page-feedback-title">Feedback</h2>
      <${DataTable}
        id="page-comments"
        caption="Comments on this page, newest first (resolve them in Feedback)"
        columns=${[{ label: 'Vote' }, { label: 'Comment' }, { label: 'When' }, { label: 'Status' }]}
        rows=${feedback.comments.map((c) => ({
          key: c.id,
          cells: [
            vote(c.helpful),
            html`<span class="comment">${c.comment}</span>`,
            age(c.createdAt),
            c.status.replace('_', ' '),
          ],
        }))}
        empty=${html`<p>No comments on this page in this range.</p>`}
      />
    </section>
    <section aria-labelledby="page-misses-title">
      <h2 id="page-misses-title">Missing URLs that could redirect here</h2>
      <${DataTable}
        id="page-misses"
        caption="Requested URLs answered 404/410 whose closest page is this one"
        columns=${[{ label: 'Requested URL' }, { label: 'Requests', num: true }, { label: 'Readers', num: true }]}
        rows=${r.misses.map((m) => ({
          key: m.problemId,
          href: '#problems?kind=missing-page',
          cells: [m.url, num(m.requests), num(m.readers)],
        }))}
        empty=${html`<p>No missing URL points here.</p>`}
      />
    </section>
    <section aria-labelledby="page-searches-title">
      <h2 id="page-searches-title">Searches and referrals</h2>
      <${DataTable}
        id="page-searches"
        caption="Searches whose result readers clicked to get here"
        columns=${[{ label: 'Search' }, { label: 'Clicks', num: true }]}
        rows=${r.searches.map((s) => ({ key: s.query, cells: [s.query, num(s.clicks)] }))}
        empty=${html`<p>No search led here in this range.</p>`}
      />
      <${DataTable}
        id="page-referrals"
        caption="People sent here by AI assistants"
        columns=${[{ label: 'Assistant' }, { label: 'Views', num: true }, { label: 'Visitors', num: true }]}
        rows=${r.referrals.map((a) => ({ key: a.assistant, cells: [a.assistant, num(a.views), num(a.visitors)] }))}
        empty=${html`<p>No AI assistant sent anyone here in this range.</p>`}
      />
    </section>
    <section aria-labelledby="page-changes-title">
      <h2 id="page-changes-title">Changes</h2>
      <${DataTable}
        id="page-pulls"
        caption="Scribe's pull requests that changed this page"
        columns=${[{ label: 'Pull request' }, { label: 'State' }, { label: 'Opened' }, { label: 'Job' }, { label: 'Outcome here' }]}
        rows=${r.pullRequests.map((p) => ({
          key: p.jobId,
          href: jobHref(p.jobId),
          cells: [
            html`<a href=${p.prLink}>${prLabel(p.prLink)}</a>`,
            p.merged ? 'merged' : p.state,
            age(p.createdAt),
            html`<a href=${jobHref(p.jobId)}>job</a>`,
            p.merged ? html`<${PageOutcome} jobId=${p.jobId} path=${r.path} />` : '–',
          ],
        }))}
        empty=${html`<p>No Scribe pull request changed this page yet.</p>`}
      />
      <${DataTable}
        id="page-reviews"
        caption="Docs reviews of source pull requests that found this page out of date"
        columns=${[{ label: 'Source pull request' }, { label: 'Findings', num: true }, { label: 'Conclusion' }, { label: 'Reviewed' }]}
        rows=${r.reviews.map((v) => ({
          key: `${v.repository}#${v.number}@${v.headSha}`,
          cells: [`${v.repository}#${v.number}`, num(v.findings), v.conclusion ?? 'pending', age(v.reviewedAt)],
        }))}
        empty=${html`<p>No docs review flagged this page.</p>`}
      />
    </section>`;
}

/**
 * A merged pull request's outcome on this page (the job's `outcome`): the page's verdict and its human visitors before
 * → after in the window shown (see shownWindow).
 */
function PageOutcome({ jobId, path }) {
  const job = useLoad(() => getJson(`/v2/agent/{project}/job/${encodeURIComponent(jobId)}`), [jobId]);
  if (job.status !== 'ready') return job.status === 'error' ? '–' : '…';
  const { outcome } = job.data;
  const shown = outcome && shownWindow(outcome);
  const here = shown?.pages.find((p) => p.path === path);
  if (!outcome || !here) return outcome ? outcome.verdict : '–';
  return `${here.verdict}: people ${num(here.humanVisitors.before)} → ${num(here.humanVisitors.after)} (${shown.days} d${shown.status === 'partial' ? `, ${shown.daysSoFar} so far` : ''})`;
}
