import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { getJson, query, request } from './api.js';
import { DataTable, Loaded, Pager, useAction } from './components.js';
import { age, count, num, pageHref, rangeQuery } from './format.js';
import { useCursor, useLoad } from './hooks.js';

const PAGE_SIZE = 20;
const FILTERS = [
  ['pending,in_progress', 'to review'],
  ['resolved', 'resolved'],
  ['dismissed', 'dismissed'],
  ['', 'all'],
];
const vote = (helpful) => (helpful === true ? 'helpful' : helpful === false ? 'not helpful' : '–');

/** What readers said and searched for; entries are resolved or dismissed from their table. */
export function FeedbackView({ range }) {
  const [status, setStatus] = useState('pending,in_progress');
  return html`<h1>Feedback</h1>
    <section aria-labelledby="entries-title">
      <h2 id="entries-title">Entries</h2>
      <label class="filter">Show
        <select id="feedback-status" value=${status} onChange=${(e) => setStatus(e.currentTarget.value)}>
          ${FILTERS.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
        </select>
      </label>
      <${Entries} key=${status} range=${range} status=${status} />
    </section>
    <${ByPage} range=${range} />
    <${Searches} range=${range} />`;
}

function Entries({ range, status }) {
  const pager = useCursor();
  const action = useAction();
  const entries = useLoad(
    () =>
      getJson(
        `/v1/analytics/{project}/feedback${query({ ...rangeQuery(range), status, limit: PAGE_SIZE, cursor: pager.cursor })}`,
      ),
    [pager.cursor],
  );
  const set = (entry, next) =>
    action.run(async () => {
      await request(`/v1/analytics/{project}/feedback/${encodeURIComponent(entry.id)}`, {
        method: 'PATCH',
        body: { status: next },
        write: true,
      });
      entries.reload();
    });
  const buttons = (f) =>
    f.status === 'resolved' || f.status === 'dismissed'
      ? html`<button type="button" data-action="reopen" aria-label=${`Reopen feedback on ${f.path}`} onClick=${() => set(f, 'pending')}>Reopen</button>`
      : html`<button type="button" data-action="resolve" aria-label=${`Resolve feedback on ${f.path}`} onClick=${() => set(f, 'resolved')}>Resolve</button>
          <button type="button" data-action="dismiss" aria-label=${`Dismiss feedback on ${f.path}`} onClick=${() => set(f, 'dismissed')}>Dismiss</button>`;
  return html`${action.prompt}
    <${Loaded} result=${entries}>
      ${(page) => html`<${DataTable}
          id="feedback-list"
          caption="Feedback entries, newest first"
          columns=${[{ label: 'Page' }, { label: 'Vote' }, { label: 'Comment', wide: true }, { label: 'When' }, { label: 'Status' }, { label: 'Action' }]}
          rows=${page.feedback.map((f) => ({
            key: f.id,
            cells: [
              html`<a href=${pageHref(f.path)}>${f.path}</a>`,
              vote(f.helpful),
              html`<span class="comment">${f.comment || f.code || ''}</span>`,
              f.createdAt ? age(f.createdAt) : '–',
              html`<span class=${`badge ${f.status}`}>${f.status.replace('_', ' ')}</span>`,
              html`<span class="row-actions" aria-disabled=${action.busy}>${buttons(f)}</span>`,
            ],
          }))}
          empty=${html`<p>${
            pager.page > 1
              ? 'No more entries.'
              : status
                ? 'No feedback entries with this status in this range.'
                : 'No feedback in this range. The tracker tag adds a "Was this page helpful?" widget readers answer; see the Overview for the tag.'
          }</p>`}
        />
        <${Pager} id="feedback" label="Entries" from=${(pager.page - 1) * PAGE_SIZE + 1} count=${page.feedback.length} hasPrevious=${pager.page > 1} hasNext=${page.hasMore} onPrevious=${pager.previous} onNext=${() => pager.next(page.nextCursor)} />`}
    <//>`;
}

function ByPage({ range }) {
  const pager = useCursor();
  const rows = useLoad(
    () =>
      getJson(
        `/v1/analytics/{project}/feedback/by-page${query({ ...rangeQuery(range), limit: PAGE_SIZE, cursor: pager.cursor })}`,
      ),
    [pager.cursor],
  );
  return html`<section aria-labelledby="by-page-title">
    <h2 id="by-page-title">Feedback by page</h2>
    <${Loaded} result=${rows}>
      ${(page) => html`<${DataTable}
          id="feedback-by-page"
          caption="Votes and comments per page; open a page for its details"
          columns=${[{ label: 'Page' }, { label: 'Helpful', num: true }, { label: 'Not helpful', num: true }, { label: 'Code', num: true }, { label: 'Total', num: true }]}
          rows=${page.feedback.map((r) => ({
            key: r.path,
            href: pageHref(r.path),
            cells: [
              html`<a href=${pageHref(r.path)}>${r.path}</a>`,
              num(r.thumbsUp),
              num(r.thumbsDown),
              num(r.code),
              num(r.total),
            ],
          }))}
          empty=${html`<p>No feedback in this range.</p>`}
        />
        <${Pager} id="by-page" label="Pages" from=${(pager.page - 1) * PAGE_SIZE + 1} count=${page.feedback.length} hasPrevious=${pager.page > 1} hasNext=${page.hasMore} onPrevious=${pager.previous} onNext=${() => pager.next(page.nextCursor)} />`}
    <//>
  </section>`;
}

function Searches({ range }) {
  const pager = useCursor();
  const rows = useLoad(
    () =>
      getJson(
        `/v1/analytics/{project}/searches${query({ ...rangeQuery(range), limit: PAGE_SIZE, cursor: pager.cursor })}`,
      ),
    [pager.cursor],
  );
  return html`<section aria-labelledby="searches-title">
    <h2 id="searches-title">Searches</h2>
    <${Loaded} result=${rows}>
      ${(page) => html`<${DataTable}
          id="searches"
          caption=${`What readers searched for (${count(page.totalSearches, 'search', 'searches')} in this range)`}
          columns=${[{ label: 'Search' }, { label: 'Searches', num: true }, { label: 'Click-through', num: true }, { label: 'Top result' }]}
          rows=${page.searches.map((s) => ({
            key: s.searchQuery,
            cells: [
              s.searchQuery,
              num(s.hits),
              `${Math.round(s.ctr * 100)}%`,
              s.topClickedPage ? html`<a href=${pageHref(s.topClickedPage)}>${s.topClickedPage}</a>` : 'none clicked',
            ],
          }))}
          empty=${html`<p>No searches in this range. Searches are sent by the docs site's search box (<code>POST /api/search</code>) or by the API.</p>`}
        />
        <${Pager} id="searches" label="Searches" from=${(pager.page - 1) * PAGE_SIZE + 1} count=${page.searches.length} hasPrevious=${pager.page > 1} hasNext=${page.hasMore} onPrevious=${pager.previous} onNext=${() => pager.next(page.nextCursor)} />`}
    <//>
  </section>`;
}
