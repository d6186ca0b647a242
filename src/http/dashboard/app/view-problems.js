import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { getJson, query, request } from './api.js';
import { DataTable, Loaded, Pager, useAction } from './components.js';
import { age, count, jobHref, num, pageHref, prLabel, rangeQuery } from './format.js';
import { useCursor, useLoad } from './hooks.js';

const PAGE_SIZE = 20;
const PROBLEM_KINDS = [
  ['missing-page', 'missing page'],
  ['negative-feedback', 'negative feedback'],
  ['search-gap', 'search gap'],
  ['stale-page', 'stale page'],
];
const PROBLEM_STATUSES = ['open', 'in_progress', 'fixed', 'verified', 'regressed', 'dismissed'];

/** The trend as the API computes it: `change` is null when the previous period had no readers. */
const trend = ({ readers, trend: t }) =>
  t.change === null
    ? readers
      ? 'new'
      : 'no change'
    : t.change === 0
      ? 'no change'
      : `${t.change > 0 ? '+' : '−'}${Math.round(Math.abs(t.change) * 100)}%`;

/** The line under a problem's title: what was asked for, said or searched, from its evidence. */
function evidenceLine(p) {
  const e = p.evidence;
  if (p.kind === 'missing-page')
    return `requested ${e.url}: ${count(e.requests, 'request')} (${count(e.humanReaders, 'person', 'people')}, ${count(e.aiReaders, 'AI agent')})${e.candidates.length ? `; could redirect to ${e.candidates[0].path}` : ''}`;
  if (p.kind === 'negative-feedback')
    return `${e.thumbsDown} not helpful, ${e.thumbsUp} helpful${e.comments[0] ? `: “${e.comments[0].comment}”` : ''}`;
  if (p.kind === 'search-gap')
    return `“${e.query}”: ${count(e.searches, 'search', 'searches')}, ${count(e.clicks, 'click')}`;
  if (p.kind === 'stale-page')
    return `${e.repository}#${e.number} changed ${count(e.findings.length, 'thing')} it documents`;
  return '';
}

const problemsPath = (params) => `/v1/analytics/{project}/problems${query(params)}`;

/** Problems to act on: filtered by kind and status, several selected at once, fixed by a job, dismissed, reopened. */
export function ProblemsView({ range, params }) {
  const [filter, setFilter] = useState({ kind: params.get('kind') || '', status: params.get('status') || 'open' });
  const onChange = (name) => (event) => setFilter((f) => ({ ...f, [name]: event.currentTarget.value }));
  return html`<h1>Problems</h1>
    <form class="filters" aria-label="Filter problems" onSubmit=${(e) => e.preventDefault()}>
      <label>Kind
        <select id="problem-kind" value=${filter.kind} onChange=${onChange('kind')}>
          <option value="">all kinds</option>
          ${PROBLEM_KINDS.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
        </select>
      </label>
      <label>Status
        <select id="problem-status" value=${filter.status} onChange=${onChange('status')}>
          <option value="">any status</option>
          ${PROBLEM_STATUSES.map((s) => html`<option value=${s}>${s.replace('_', ' ')}</option>`)}
        </select>
      </label>
    </form>
    <${ProblemRows} key=${`${filter.kind}|${filter.status}`} range=${range} kind=${filter.kind} status=${filter.status} limit=${PAGE_SIZE} selectable=${true} />`;
}

/** A page of problems; with `selectable`, check boxes and the actions on the checked ones. */
export function ProblemRows({ range, kind, status, limit, selectable }) {
  const pager = useCursor();
  const [selected, setSelected] = useState(() => new Set());
  // kept here, not in Actions: the list reloads after a fix, and the link to the job must stay
  const [job, setJob] = useState(null);
  const problems = useLoad(
    () => getJson(problemsPath({ ...rangeQuery(range), kind, status, limit, cursor: pager.cursor })),
    [pager.cursor],
  );
  const toggle = (id) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const done = () => {
    setSelected(new Set());
    problems.reload();
  };
  return html`${job ? html`<p role="status" class="notice">Fix started: <a href=${jobHref(job.id)}>job ${job.id}</a> (its live log)</p>` : null}
  <${Loaded} result=${problems}>
    ${(page) => html`
      ${selectable ? html`<${Actions} problems=${page.problems.filter((p) => selected.has(p.id))} onDone=${done} onJob=${setJob} />` : null}
      <${DataTable}
        id=${selectable ? 'problems' : 'top-problems'}
        caption=${selectable ? 'Problems: check some to act on them; open a page for its details' : 'The open problems with the most readers'}
        columns=${[
          ...(selectable
            ? [
                {
                  label: html`<input
                    type="checkbox"
                    id="select-all"
                    aria-label="Select every problem on this page"
                    checked=${page.problems.length > 0 && page.problems.every((p) => selected.has(p.id))}
                    onChange=${(e) => setSelected(new Set(e.currentTarget.checked ? page.problems.map((p) => p.id) : []))}
                  />`,
                },
              ]
            : []),
          { label: 'Problem', wide: true },
          { label: 'Pages' },
          { label: 'Readers', num: true },
          { label: 'Trend', num: true },
          { label: 'Status' },
          { label: 'Last seen' },
          { label: 'Fix' },
        ]}
        rows=${page.problems.map((p) => ({
          key: p.id,
          href: p.paths[0] ? pageHref(p.paths[0]) : undefined,
          cells: [
            ...(selectable
              ? [
                  html`<input type="checkbox" aria-label=${`Select: ${p.title}`} data-problem=${p.id} checked=${selected.has(p.id)} onChange=${() => toggle(p.id)} />`,
                ]
              : []),
            html`<span class="kind">${p.kind.replace('-', ' ')}</span> ${p.title}
              <span class="evidence">${evidenceLine(p)}</span>
              ${p.dismissal ? html`<span class="evidence">dismissed: ${p.dismissal.reason}</span>` : null}`,
            p.paths.length
              ? html`${p.paths.slice(0, 3).map((path) => html`<a href=${pageHref(path)}>${path}</a> `)}${p.paths.length > 3 ? `+${p.paths.length - 3} more` : ''}`
              : '–',
            num(p.readers),
            html`<span title=${`${num(p.trend.previousReaders)} in the previous period`}>${trend(p)}</span>`,
            html`<span class=${`badge ${p.status}`}>${p.status.replace('_', ' ')}</span>`,
            age(p.lastSeen),
            p.prLink
              ? html`<a href=${p.prLink}>${prLabel(p.prLink)}</a>`
              : p.jobId
                ? html`<a href=${jobHref(p.jobId)}>job</a>`
                : '–',
          ],
        }))}
        empty=${html`<p>${
          pager.page > 1
            ? 'No more problems.'
            : status === 'open'
              ? 'No open problems in this range: nothing readers or AI agents ran into needs fixing. Problems come from the visits, misses, searches and feedback the project collects; with no traffic yet, see the Overview for how to start.'
              : 'No problems match this filter.'
        }</p>`}
      />
      <${Pager}
        id="problems"
        label="Problems"
        from=${(pager.page - 1) * limit + 1}
        count=${page.problems.length}
        hasPrevious=${selectable && pager.page > 1}
        hasNext=${selectable && Boolean(page.nextCursor)}
        onPrevious=${pager.previous}
        onNext=${() => pager.next(page.nextCursor)}
      />`}
  <//>`;
}

function Actions({ problems, onDone, onJob }) {
  const action = useAction();
  const [reason, setReason] = useState('');
  const [instructions, setInstructions] = useState('');
  const none = problems.length === 0;
  const patch = (body) =>
    action.run(async () => {
      for (const p of problems)
        await request(`/v1/analytics/{project}/problems/${encodeURIComponent(p.id)}`, {
          method: 'PATCH',
          body,
          write: true,
        });
      setReason('');
      onDone();
    });
  const fix = () =>
    action.run(async () => {
      const body = {
        ids: problems.map((p) => p.id),
        ...(instructions.trim() ? { instructions: instructions.trim() } : {}),
      };
      const res = await request('/v1/analytics/{project}/problems/fix', { method: 'POST', body, write: true });
      onJob(await res.json());
      setInstructions('');
      onDone();
    });
  return html`<fieldset class="actions" disabled=${action.busy}>
    <legend>${none ? 'Check problems below to act on them' : `${problems.length} selected`}</legend>
    <div class="action">
      <label>Instructions for the fix (optional)
        <textarea id="fix-instructions" rows="2" value=${instructions} onInput=${(e) => setInstructions(e.currentTarget.value)}></textarea>
      </label>
      <button type="button" id="fix" disabled=${none} onClick=${fix}>Fix with a job</button>
    </div>
    <div class="action">
      <label>Why dismiss?
        <input id="dismiss-reason" value=${reason} onInput=${(e) => setReason(e.currentTarget.value)} placeholder="e.g. the page was removed on purpose" />
      </label>
      <button type="button" id="dismiss" disabled=${none || !reason.trim()} onClick=${() => patch({ status: 'dismissed', reason: reason.trim() })}>Dismiss</button>
      <button type="button" id="reopen" disabled=${none} onClick=${() => patch({ status: 'open' })}>Reopen</button>
    </div>
    <p class="quiet">Actions change the project and need a write key; you will be asked for one.</p>
    ${action.prompt}
  </fieldset>`;
}
