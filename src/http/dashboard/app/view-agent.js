import { html } from 'htm/preact';
import { getJson, query } from './api.js';
import { DataTable, Figure, Loaded } from './components.js';
import { num, pageHref, rangeQuery } from './format.js';
import { useLoad } from './hooks.js';

/** agent × page rows read to find one agent's (the report has no agent filter), at most this many */
const MAX_ROWS = 1000;

/** One AI agent: its figures and the pages it read in the range. */
export function AgentView({ range, params }) {
  const name = params.get('name') || '';
  const agent = useLoad(async () => {
    const [{ agents }, rows] = await Promise.all([
      getJson(`/v1/analytics/{project}/agents${query(rangeQuery(range))}`),
      agentRows(range, name),
    ]);
    return { figures: agents.find((a) => a.agent === name), ...rows };
  }, []);
  return html`<p><a href="#traffic">← AI traffic</a></p>
    <h1>AI agent <span id="agent-name">${name}</span></h1>
    <${Loaded} result=${agent}>
      ${({ figures, rows, partial }) => html`
        ${
          figures
            ? html`<div class="figures">
                <${Figure} id="agent-visitors" label="Visitors" value=${num(figures.visitors)} />
                <${Figure} id="agent-verified" label="Verified" value=${num(figures.verifiedVisitors)} />
                <${Figure} id="agent-views" label="Views" value=${num(figures.views)} />
                <${Figure} label="Kind" value=${figures.kind} />
              </div>`
            : html`<p>No visits by ${name} in this range.</p>`
        }
        <${DataTable}
          id="agent-pages-of"
          caption=${`Pages ${name} read${partial ? ` (among the ${num(MAX_ROWS)} busiest agent × page rows)` : ''}`}
          columns=${[{ label: 'Page' }, { label: 'Views', num: true }, { label: 'Visitors', num: true }]}
          rows=${rows.map((r) => ({
            key: r.path,
            href: pageHref(r.path),
            cells: [html`<a href=${pageHref(r.path)}>${r.path}</a>`, num(r.views), num(r.visitors)],
          }))}
          empty=${html`<p>${name} read no page in this range.</p>`}
        />`}
    <//>`;
}

async function agentRows(range, name) {
  const rows = [];
  for (let offset = 0; offset < MAX_ROWS; offset += 250) {
    const page = await getJson(
      `/v1/analytics/{project}/ai/agent-pages${query({ ...rangeQuery(range), limit: 250, offset })}`,
    );
    rows.push(...page.rows.filter((r) => r.agent === name));
    if (!page.hasMore) return { rows, partial: false };
  }
  return { rows, partial: true };
}
