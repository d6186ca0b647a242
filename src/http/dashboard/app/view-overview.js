import { html } from 'htm/preact';
import { getJson, query } from './api.js';
import { Chart } from './chart.js';
import { DataTable, Figure, Loaded, NoTraffic, Pager } from './components.js';
import { change, num, pageHref, previousRange, rangeDays, rangeQuery } from './format.js';
import { useLoad, useOffset } from './hooks.js';
import { ProblemRows } from './view-problems.js';

const PAGE_SIZE = 20;

/** Totals against the previous period of the same length, visitors per day, the top open problems, the top pages. */
export function OverviewView({ range }) {
  return html`<h1>Overview</h1>
    <${Totals} range=${range} />
    <${Daily} range=${range} />
    <section aria-labelledby="top-problems-title">
      <h2 id="top-problems-title">Top problems</h2>
      <${ProblemRows} range=${range} status="open" limit=${5} selectable=${false} />
      <p><a href="#problems">All problems →</a></p>
    </section>
    <${TopPages} range=${range} />`;
}

function Totals({ range }) {
  const previous = previousRange(range);
  const totals = useLoad(async () => {
    const read = (what, r) => getJson(`/v1/analytics/{project}/${what}${query({ ...rangeQuery(r), limit: 1 })}`);
    const [visitors, before, views, viewsBefore] = await Promise.all([
      read('visitors', range),
      read('visitors', previous),
      read('views', range),
      read('views', previous),
    ]);
    return {
      now: { ...visitors.totals, views: views.totals.total },
      before: { ...before.totals, views: viewsBefore.totals.total },
    };
  }, []);
  const days = rangeDays(range);
  return html`<section aria-labelledby="totals-title">
    <h2 id="totals-title">Totals <span class="quiet">against the previous ${days} days</span></h2>
    <${Loaded} result=${totals}>
      ${({ now, before }) => html`<div class="figures">
        <${Figure} id="total-human" label="Human visitors" value=${num(now.human)} note=${`${change(now.human, before.human)} (was ${num(before.human)})`} />
        <${Figure} id="total-ai" label="AI visitors" value=${num(now.ai)} note=${`${change(now.ai, before.ai)} (was ${num(before.ai)})`} />
        <${Figure} id="total-all" label="All visitors" value=${num(now.total)} note=${`${change(now.total, before.total)} (was ${num(before.total)})`} />
        <${Figure} id="total-views" label="Page views" value=${num(now.views)} note=${`${change(now.views, before.views)} (was ${num(before.views)})`} />
      </div>`}
    <//>
  </section>`;
}

function Daily({ range }) {
  const daily = useLoad(() => getJson(`/v1/analytics/{project}/visitors/daily${query(rangeQuery(range))}`), []);
  return html`<section aria-labelledby="daily-title">
    <h2 id="daily-title">Unique visitors per day</h2>
    <${Loaded} result=${daily}>
      ${({ days }) => html`<${Chart}
        id="daily"
        title="Unique visitors per day, human and AI"
        type="line"
        unit="visitors"
        labels=${days.map((d) => d.date)}
        datasets=${[
          {
            label: 'Human',
            data: days.map((d) => d.human),
            borderColor: '#0969da',
            backgroundColor: '#0969da33',
            fill: true,
          },
          {
            label: 'AI',
            data: days.map((d) => d.ai),
            borderColor: '#8250df',
            backgroundColor: '#8250df33',
            fill: true,
          },
        ]}
      />`}
    <//>
  </section>`;
}

function TopPages({ range }) {
  const pager = useOffset(PAGE_SIZE);
  const pages = useLoad(
    () =>
      getJson(
        `/v1/analytics/{project}/visitors${query({ ...rangeQuery(range), limit: PAGE_SIZE, offset: pager.offset })}`,
      ),
    [pager.offset],
  );
  return html`<section aria-labelledby="pages-title">
    <h2 id="pages-title">Top pages</h2>
    <${Loaded} result=${pages}>
      ${(page) => html`<${DataTable}
          id="pages"
          caption="Unique visitors per page; open a page for its details"
          columns=${[{ label: 'Page' }, { label: 'Human', num: true }, { label: 'AI', num: true }, { label: 'Total', num: true }]}
          rows=${page.visitors.map((r) => ({
            key: r.path,
            href: pageHref(r.path),
            cells: [html`<a href=${pageHref(r.path)}>${r.path}</a>`, num(r.human), num(r.ai), num(r.total)],
          }))}
          empty=${pager.offset ? html`<p>No more pages.</p>` : html`<${NoTraffic} />`}
        />
        <${Pager}
          id="pages"
          label="Pages"
          from=${pager.offset + 1}
          count=${page.visitors.length}
          hasPrevious=${pager.offset > 0}
          hasNext=${page.hasMore}
          onPrevious=${pager.previous}
          onNext=${pager.next}
        />`}
    <//>
  </section>`;
}
