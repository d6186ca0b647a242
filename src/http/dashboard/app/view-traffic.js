import { html } from 'htm/preact';
import { getJson, query, session } from './api.js';
import { Chart } from './chart.js';
import { CsvButton, DataTable, Loaded, NoTraffic, Pager } from './components.js';
import { agentHref, num, pageHref, rangeQuery } from './format.js';
import { useLoad, useOffset } from './hooks.js';

const PAGE_SIZE = 20;

/** AI traffic: who came (and whether they proved it), for what purpose, what they read and missed, whom they sent. */
export function TrafficView({ range }) {
  return html`<h1>AI traffic</h1>
    <${Agents} range=${range} />
    <${Purposes} range=${range} />
    <${AgentPages} range=${range} />
    <${Misses} range=${range} />
    <${Referrals} range=${range} />`;
}

const LogsImport = () => html`<pre><code>npx scribe logs import --project ${session.project()} access.log</code></pre>`;

function Agents({ range }) {
  const agents = useLoad(() => getJson(`/v1/analytics/{project}/agents${query(rangeQuery(range))}`), []);
  return html`<section aria-labelledby="agents-title">
    <h2 id="agents-title">AI agents</h2>
    <${Loaded} result=${agents}>
      ${({ agents: rows, spoofed }) => html`
        <${DataTable}
          id="agents"
          caption="Distinct visitors and views per AI agent; open an agent for the pages it read"
          columns=${[
            { label: 'Agent' },
            { label: 'Kind' },
            { label: 'Visitors', num: true },
            { label: 'Verified', num: true },
            { label: 'Unverifiable', num: true },
            { label: 'Views', num: true },
          ]}
          rows=${rows.map((a) => ({
            key: a.agent,
            href: agentHref(a.agent),
            cells: [
              html`<a href=${agentHref(a.agent)}>${a.agent}</a>`,
              a.kind,
              num(a.visitors),
              num(a.verifiedVisitors),
              num(a.unverifiableVisitors),
              num(a.views),
            ],
          }))}
          empty=${html`<p>No AI agent visits in this range. AI agents rarely run the browser tracker, so their visits come mostly from access logs:</p><${LogsImport} />`}
        />
        ${rows.length && rows.every((a) => a.verifiedVisitors === 0) ? html`<${StaleRanges} />` : null}
        <h3>Spoofed AI user agents</h3>
        <${DataTable}
          id="spoofed"
          caption="Claimed to be an AI agent from outside its operator's published addresses: counted neither as AI nor as human"
          columns=${[{ label: 'Claimed agent' }, { label: 'Visitors', num: true }, { label: 'Views', num: true }]}
          rows=${spoofed.map((a) => ({ key: a.agent, cells: [a.agent, num(a.visitors), num(a.views)] }))}
          empty=${html`<p>No spoofed AI user agents in this range.</p>`}
        />`}
    <//>
  </section>`;
}

/** Why every agent is unverifiable: a visit is verified against a fresh copy of its operator's address list. */
function StaleRanges() {
  return html`<div class="notice" id="verified-note" role="note">
    <p><strong>No visitor is verified.</strong> A visit is verified when it comes from inside a <em>fresh</em> copy of its operator's published address list. The lists shipped with Scribe are a snapshot and count as stale once older than <code>SCRIBE_AI_RANGES_MAX_AGE_DAYS</code> (30 days by default); until this server holds fresh copies, every agent's visitors are counted as unverifiable, not as fakes.</p>
    <p>To fix it: let the server fetch the lists daily (<code>SCRIBE_AI_RANGES_REFRESH=daily</code>, the default, needs outbound HTTPS to the operators' sites), or download them and run <code>${'npx scribe ranges import <folder>'}</code>. The metric <code>scribe_ai_ranges_age_seconds</code> shows each list's age.</p>
  </div>`;
}

// A sum and its parts are never bars side by side: the chart draws the AI parts only, and the table indents each
// part under its sum. Visitors are distinct counts (one visitor can be in two parts), so only views are charted.
const AI_PARTS = [
  ['Search / indexing', (v) => v.searchIndexViews],
  ['Training', (v) => v.trainingViews],
  ['Assistant', (v) => v.assistantViews],
  ['Agent', (v) => v.agentViews],
  ['Unidentified AI', (v) => v.otherAiViews - v.assistantViews - v.agentViews],
];
const PURPOSE_ROWS = [
  ['Human', 'humanViews', 0],
  ['AI, all purposes', 'aiViews', 0],
  ['Search / indexing', 'searchIndexViews', 1],
  ['Training', 'trainingViews', 1],
  ['Other AI', 'otherAiViews', 1],
  ['Assistant', 'assistantViews', 2],
  ['Agent', 'agentViews', 2],
  ['Spoofed AI (in no other row)', 'unverifiedAiViews', 0],
];

function Purposes({ range }) {
  const purposes = useLoad(
    () => getJson(`/v1/analytics/{project}/ai/purposes${query({ ...rangeQuery(range), limit: 1 })}`),
    [],
  );
  return html`<section aria-labelledby="purposes-title">
    <h2 id="purposes-title">AI traffic by purpose</h2>
    <${Loaded} result=${purposes}>
      ${({ totals: { views, visitors } }) => html`
        ${
          views.aiViews > 0
            ? html`<${Chart}
                id="purposes"
                title="AI page views by purpose"
                type="bar"
                unit="views"
                horizontal=${true}
                labels=${AI_PARTS.map(([label]) => label)}
                datasets=${[{ label: 'Views', data: AI_PARTS.map(([, part]) => part(views)), backgroundColor: '#8250df' }]}
              />`
            : null
        }
        <${DataTable}
          id="purposes"
          caption="Views and distinct visitors by purpose; indented rows are parts of the row above them (visitors of the parts can add up to more than their sum: one visitor can have several purposes)"
          columns=${[{ label: 'Purpose' }, { label: 'Views', num: true }, { label: 'Visitors', num: true }]}
          rows=${PURPOSE_ROWS.map(([label, column, depth]) => ({
            key: column,
            cells: [html`<span class=${`depth-${depth}`}>${label}</span>`, num(views[column]), num(visitors[column])],
          }))}
        />
        <p>
          <${CsvButton}
            path=${`/v1/analytics/{project}/ai/purposes${query({ ...rangeQuery(range), format: 'csv' })}`}
            filename=${`ai-traffic-${range.from}-${range.to}.csv`}
            label="Download views per page by purpose (CSV)"
          />
        </p>`}
    <//>
  </section>`;
}

function AgentPages({ range }) {
  const pager = useOffset(PAGE_SIZE);
  const rows = useLoad(
    () =>
      getJson(
        `/v1/analytics/{project}/ai/agent-pages${query({ ...rangeQuery(range), limit: PAGE_SIZE, offset: pager.offset })}`,
      ),
    [pager.offset],
  );
  return html`<section aria-labelledby="agent-pages-title">
    <h2 id="agent-pages-title">Pages AI agents read</h2>
    <${Loaded} result=${rows}>
      ${(page) => html`<${DataTable}
          id="agent-pages"
          caption="Views and visitors per agent and page"
          columns=${[{ label: 'Agent' }, { label: 'Page' }, { label: 'Views', num: true }, { label: 'Visitors', num: true }]}
          rows=${page.rows.map((r) => ({
            key: `${r.agent} ${r.path}`,
            href: pageHref(r.path),
            cells: [
              html`<a href=${agentHref(r.agent)}>${r.agent}</a>`,
              html`<a href=${pageHref(r.path)}>${r.path}</a>`,
              num(r.views),
              num(r.visitors),
            ],
          }))}
          empty=${pager.offset ? html`<p>No more rows.</p>` : html`<p>No AI agent read a page in this range.</p><${NoTraffic} />`}
        />
        <${Pager} id="agent-pages" label="Rows" from=${pager.offset + 1} count=${page.rows.length} hasPrevious=${pager.offset > 0} hasNext=${page.hasMore} onPrevious=${pager.previous} onNext=${pager.next} />`}
    <//>
  </section>`;
}

function Misses({ range }) {
  const pager = useOffset(PAGE_SIZE);
  const rows = useLoad(
    () =>
      getJson(
        `/v1/analytics/{project}/ai/misses${query({ ...rangeQuery(range), limit: PAGE_SIZE, offset: pager.offset })}`,
      ),
    [pager.offset],
  );
  return html`<section aria-labelledby="misses-title">
    <h2 id="misses-title">What AI asked for and did not get</h2>
    <${Loaded} result=${rows}>
      ${(page) => html`<${DataTable}
          id="misses"
          caption="AI requests answered 404, 410 or 5xx, by page path as stored: the query string, a trailing slash and a .md suffix are not kept, so /guide/intro.md?x=1 shows as /guide/intro"
          columns=${[{ label: 'Page path' }, { label: 'Agent' }, { label: 'Status', num: true }, { label: 'Requests', num: true }]}
          rows=${page.rows.map((r) => ({
            key: `${r.path} ${r.agent} ${r.status}`,
            cells: [r.path, html`<a href=${agentHref(r.agent)}>${r.agent}</a>`, String(r.status), num(r.count)],
          }))}
          empty=${
            pager.offset
              ? html`<p>No more misses.</p>`
              : html`<p>No AI request went unanswered in this range, or none was imported: misses come from access logs only (a browser tag never sees a 404 an agent got).</p><${LogsImport} />`
          }
        />
        <${Pager} id="misses" label="Rows" from=${pager.offset + 1} count=${page.rows.length} hasPrevious=${pager.offset > 0} hasNext=${page.hasMore} onPrevious=${pager.previous} onNext=${pager.next} />`}
    <//>
  </section>`;
}

function Referrals({ range }) {
  const pager = useOffset(PAGE_SIZE);
  const rows = useLoad(
    () =>
      getJson(
        `/v1/analytics/{project}/ai/referrals${query({ ...rangeQuery(range), limit: PAGE_SIZE, offset: pager.offset })}`,
      ),
    [pager.offset],
  );
  return html`<section aria-labelledby="referrals-title">
    <h2 id="referrals-title">Humans sent by AI assistants</h2>
    <${Loaded} result=${rows}>
      ${(page) => html`<${DataTable}
          id="referrals"
          caption="People who arrived from an AI assistant's answer"
          columns=${[{ label: 'Assistant' }, { label: 'Views', num: true }, { label: 'Visitors', num: true }]}
          rows=${page.assistants.map((r) => ({ key: r.assistant, cells: [r.assistant, num(r.views), num(r.visitors)] }))}
          empty=${html`<p>No visitor came from an AI assistant (ChatGPT, Perplexity, Claude…) in this range.</p>`}
        />
        ${
          page.assistants.length
            ? html`<${DataTable}
                id="referral-pages"
                caption="Where they landed"
                columns=${[{ label: 'Assistant' }, { label: 'Page' }, { label: 'Views', num: true }, { label: 'Visitors', num: true }]}
                rows=${page.pages.map((r) => ({
                  key: `${r.assistant} ${r.path}`,
                  href: pageHref(r.path),
                  cells: [r.assistant, html`<a href=${pageHref(r.path)}>${r.path}</a>`, num(r.views), num(r.visitors)],
                }))}
                empty=${html`<p>No more pages.</p>`}
              />
              <${Pager} id="referral-pages" label="Rows" from=${pager.offset + 1} count=${page.pages.length} hasPrevious=${pager.offset > 0} hasNext=${page.hasMore} onPrevious=${pager.previous} onNext=${pager.next} />`
            : null
        }`}
    <//>
  </section>`;
}
