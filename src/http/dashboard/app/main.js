import { html, render } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { getJson, session } from './api.js';
import { Loaded } from './components.js';
import { isoDay } from './format.js';
import { useLoad } from './hooks.js';
import { AgentView } from './view-agent.js';
import { FeedbackView } from './view-feedback.js';
import { JobView } from './view-job.js';
import { JobsView } from './view-jobs.js';
import { OutcomesView } from './view-outcomes.js';
import { OverviewView } from './view-overview.js';
import { PageView } from './view-page.js';
import { ProblemsView } from './view-problems.js';
import { TrafficView } from './view-traffic.js';

// The docs lead's loop: overview → problems → a page → the job that fixes it → its outcome. Views are addressed by the hash
// (`#problems`, `#page?path=/x`, `#job/<id>`), so the browser's back button and bookmarks work.
const NAV = [
  ['overview', 'Overview'],
  ['problems', 'Problems'],
  ['traffic', 'AI traffic'],
  ['feedback', 'Feedback'],
  ['jobs', 'Jobs'],
  ['outcomes', 'Outcomes'],
];
const VIEWS = {
  overview: OverviewView,
  problems: ProblemsView,
  traffic: TrafficView,
  feedback: FeedbackView,
  jobs: JobsView,
  outcomes: OutcomesView,
  // the address of the former Automations view, whose lists are now in Jobs
  automations: JobsView,
  page: PageView,
  agent: AgentView,
  job: JobView,
};
/** the view each drill-down belongs to, for the navigation's current mark */
const PARENT = { page: 'overview', agent: 'traffic', job: 'jobs', automations: 'jobs' };
const TITLES = { page: 'Page', agent: 'AI agent', job: 'Job', automations: 'Jobs' };

function parseHash() {
  const [route, search = ''] = location.hash.replace(/^#/, '').split('?');
  const [view, id] = route.split('/');
  return {
    view: VIEWS[view] ? view : 'overview',
    id: id && decodeURIComponent(id),
    params: new URLSearchParams(search),
  };
}

/** The range chosen in this tab (kept across reloads, like the key), else the last 30 days up to today. */
function initialRange() {
  try {
    const kept = JSON.parse(sessionStorage.getItem('scribe.range'));
    if (kept?.from && kept?.to) return kept;
  } catch (_) {}
  const now = new Date();
  const to = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { from: isoDay(to - 30 * 86_400_000), to: isoDay(to) };
}

function ConnectForm({ onOpen }) {
  const submit = (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    onOpen(form.project.value.trim(), form.key.value.trim());
  };
  return html`<form id="connect" class="connect" autocomplete="off" onSubmit=${submit}>
    <label>Project id <input id="project" name="project" value=${session.project()} required /></label>
    <label>API key <input id="key" name="key" type="password" value=${session.key()} placeholder="scribe_sk_…" required /></label>
    <button type="submit">Open</button>
    <button type="button" id="forget" onClick=${() => onOpen(session.project(), '')}>Forget key</button>
  </form>`;
}

function RangeForm({ range, onRange }) {
  const submit = (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    onRange({ from: form.from.value, to: form.to.value });
  };
  return html`<form class="range" onSubmit=${submit} aria-label="Date range">
    <label>From <input type="date" id="date-from" name="from" value=${range.from} /></label>
    <label>To (exclusive) <input type="date" id="date-to" name="to" value=${range.to} /></label>
    <button type="submit" id="apply-range">Apply</button>
  </form>`;
}

/**
 * One light read proves the project, the key and the range before any view shows figures: a refusal is the page's
 * one error (the API's sentence and details), instead of the same error in every section.
 */
function Connected({ opened, search, children }) {
  const check = useLoad(() => getJson(`/v1/analytics/{project}/visitors?limit=1${search}`), [opened, search]);
  return html`<${Loaded} result=${check}>${() => children}<//>`;
}

function App() {
  const [hash, setHash] = useState(parseHash);
  const [range, setRange] = useState(initialRange);
  const chooseRange = (chosen) => {
    sessionStorage.setItem('scribe.range', JSON.stringify(chosen));
    setRange(chosen);
  };
  const [opened, setOpened] = useState(() => ({ n: 0, ready: Boolean(session.project() && session.key()) }));
  useEffect(() => {
    const onHash = () => setHash(parseHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const moved = useRef(false);
  useEffect(() => {
    document.title = `${TITLES[hash.view] ?? NAV.find(([v]) => v === hash.view)[1]} · Scribe dashboard`;
    // a screen reader follows to the new view; on first load focus stays at the top, where the skip link is
    if (moved.current) document.getElementById('main')?.focus({ preventScroll: true });
    moved.current = true;
  }, [hash]);
  const open = (project, key) => {
    if (key) session.open(project, key);
    else session.forget();
    setOpened((o) => ({ n: o.n + 1, ready: Boolean(project && key) }));
  };
  const View = VIEWS[hash.view];
  const usesRange = PARENT[hash.view] !== 'jobs' && hash.view !== 'jobs';
  const current = PARENT[hash.view] ?? hash.view;
  const viewKey = `${opened.n}|${range.from}|${range.to}|${location.hash}`;
  return html`
    <a class="skip" href="#main" onClick=${(e) => {
      e.preventDefault();
      document.getElementById('main').focus();
    }}>Skip to content</a>
    <header class="top">
      <p class="brand">Scribe</p>
      <nav aria-label="Views">
        ${NAV.map(([view, label]) => html`<a href=${`#${view}`} data-nav=${view} aria-current=${view === current ? 'page' : undefined}>${label}</a>`)}
      </nav>
      <details class="connection" open=${!opened.ready}>
        <summary>${opened.ready ? html`Project <code>${session.project()}</code>` : 'Connect'}</summary>
        <${ConnectForm} onOpen=${open} />
      </details>
    </header>
    <main id="main" tabindex="-1">
      ${
        opened.ready
          ? html`${usesRange ? html`<${RangeForm} range=${range} onRange=${chooseRange} />` : null}
              <${Connected} opened=${opened.n} search=${usesRange ? `&dateFrom=${range.from}&dateTo=${range.to}` : ''}>
                <${View} key=${viewKey} range=${range} id=${hash.id} params=${hash.params} />
              <//>`
          : html`<p class="hello">Paste a project id and an API key of that project to begin. A read key shows everything; actions (dismiss, fix, resolve) ask for a write key when you use them. Keys stay in this browser tab only. Create one with <code>${'npx scribe key create --project <id> --scope read'}</code>.</p>`
      }
    </main>`;
}

const root = document.getElementById('app');
root.replaceChildren();
render(html`<${App} />`, root);
