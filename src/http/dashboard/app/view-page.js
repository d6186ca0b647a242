import { html } from 'htm/preact';
import { getJson, query } from './api.js';
import { DataTable, Figure, Loaded } from './components.js';
import { num, rangeQuery } from './format.js';
import { useLoad } from './hooks.js';

/** One page: everything the page report says about it in the range. */
export function PageView({ range, params }) {
  const path = params.get('path') || '/';
  const page = useLoad(() => getJson(`/v1/analytics/{project}/page${query({ path, ...rangeQuery(range) })}`), []);
  return html`<p><a href="#overview">← overview</a></p>
    <h1>Page <code id="page-path">${path}</code></h1>
    <${Loaded} result=${page}>${(report) => html`<${Report} report=${report} />`}<//>`;
}

const label = (name) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
const cell = (value) =>
  typeof value === 'number'
    ? num(value)
    : value === null || value === undefined
      ? '–'
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);

function Report({ report }) {
  const entries = Object.entries(report).filter(([name]) => name !== 'path');
  const figures = entries.filter(([, v]) => typeof v === 'number');
  const groups = entries.filter(([, v]) => v && typeof v === 'object' && !Array.isArray(v));
  const lists = entries.filter(([, v]) => Array.isArray(v));
  return html`
    ${figures.length ? html`<div class="figures">${figures.map(([n, v]) => html`<${Figure} id=${`page-${n}`} label=${label(n)} value=${num(v)} />`)}</div>` : null}
    ${groups.map(
      ([n, v]) => html`<section><h2>${label(n)}</h2><div class="figures">
        ${Object.entries(v).map(([k, x]) => html`<${Figure} id=${`page-${n}-${k}`} label=${label(k)} value=${cell(x)} />`)}
      </div></section>`,
    )}
    ${lists.map(([n, rows]) => {
      const columns = [...new Set(rows.flatMap((r) => (r && typeof r === 'object' ? Object.keys(r) : ['value'])))];
      return html`<section><h2>${label(n)}</h2>
        <${DataTable}
          id=${`page-${n}`}
          caption=${label(n)}
          columns=${columns.map((c) => ({ label: label(c), num: rows.every((r) => typeof r?.[c] === 'number') }))}
          rows=${rows.map((r, i) => ({ key: i, cells: columns.map((c) => cell(r && typeof r === 'object' ? r[c] : r)) }))}
          empty=${html`<p>None in this range.</p>`}
        />
      </section>`;
    })}`;
}
