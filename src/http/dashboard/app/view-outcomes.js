import { html } from 'htm/preact';
import { getJson, query } from './api.js';
import { DataTable, Loaded, Pager } from './components.js';
import { age, jobHref, num, pageHref, rangeQuery, shownWindow } from './format.js';
import { useCursor, useLoad } from './hooks.js';

const PAGE_SIZE = 20;

const beforeAfter = (pair) => (pair ? `${num(pair.before)} → ${num(pair.after)}` : '–');

const PURPOSES = {
  searchIndex: 'search index',
  training: 'training',
  assistant: 'assistants',
  agent: 'agents',
  other: 'other AI',
};

/** The AI visitors by purpose, those with any on either side: the AI column's tooltip. */
const byPurpose = (purposes) =>
  Object.entries(purposes ?? {})
    .filter(([, pair]) => pair.before || pair.after)
    .map(([purpose, pair]) => `${PURPOSES[purpose] ?? purpose} ${beforeAfter(pair)}`)
    .join(' · ');

/**
 * Did the docs change help: every merged Scribe docs pull request of the range (by merge time), newest first, with its
 * verdict and the before → after of its deciding window; the range's verdicts summed above the list.
 */
export function OutcomesView({ range }) {
  const pager = useCursor();
  const list = useLoad(
    () =>
      getJson(
        `/v1/analytics/{project}/outcomes${query({ ...rangeQuery(range), limit: PAGE_SIZE, cursor: pager.cursor })}`,
      ),
    [pager.cursor],
  );
  return html`<h1>Outcomes</h1>
    <p class="quiet">Scribe's docs pull requests merged in the range, each compared before and after it went live (7, 14 and 28 days).</p>
    <${Loaded} result=${list}>
      ${(page) => html`<p id="outcome-summary">
          <strong>${num(page.summary.helped)}</strong> helped,
          <strong>${num(page.summary.noEffect)}</strong> had no effect,
          <strong>${num(page.summary.regressed)}</strong> regressed
        </p>
        <${DataTable}
          id="outcome-list"
          caption="Merged docs pull requests, newest merge first; open one for its job"
          columns=${[
            { label: 'Pull request' },
            { label: 'Merged' },
            { label: 'Verdict' },
            { label: 'Pages' },
            { label: 'Human visitors', num: true },
            { label: 'AI visitors', num: true },
            { label: 'Misses', num: true },
          ]}
          rows=${page.outcomes.map(({ jobId, repository, number, pages, outcome }) => {
            const deciding = shownWindow(outcome);
            return {
              key: jobId,
              href: jobHref(jobId),
              cells: [
                html`<a href=${jobHref(jobId)}>${repository}#${number}</a>`,
                age(outcome.mergedAt),
                html`<span class=${`badge ${outcome.verdict === 'helped' ? 'verified' : outcome.verdict === 'regressed' ? 'regressed' : ''}`}>${outcome.verdict}</span>${deciding ? ` (${deciding.days} d${deciding.status === 'partial' ? `, ${deciding.daysSoFar} so far` : ''})` : ''}`,
                html`${pages.map((p, i) => html`${i ? ', ' : ''}${p.change === 'deleted' ? p.path : html`<a href=${pageHref(p.path)}>${p.path}</a>`} (${p.change})`)}`,
                beforeAfter(deciding?.total.humanVisitors),
                html`<span title=${byPurpose(deciding?.total.aiVisitorsByPurpose)}>${beforeAfter(deciding?.total.aiVisitors)}</span>`,
                beforeAfter(deciding?.total.misses),
              ],
            };
          })}
          empty=${html`<p>${pager.page > 1 ? 'No more pull requests.' : 'No Scribe docs pull request merged in this range. Outcomes appear once a pull request Scribe opened is merged.'}</p>`}
        />
        <${Pager} id="outcomes" label="Pull requests" from=${(pager.page - 1) * PAGE_SIZE + 1} count=${page.outcomes.length} hasPrevious=${pager.page > 1} hasNext=${page.nextCursor !== null} onPrevious=${pager.previous} onNext=${() => pager.next(page.nextCursor)} />`}
    <//>`;
}
