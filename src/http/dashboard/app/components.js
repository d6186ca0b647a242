import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { downloadCsv, session } from './api.js';

/** The API's sentence and each of its details: what was wrong, in its words. */
export function ErrorNote({ error }) {
  return html`<div class="error" role="alert">
    <p>${error.message}</p>
    ${error.details?.length ? html`<ul>${error.details.map((d) => html`<li>${d}</li>`)}</ul>` : null}
  </div>`;
}

/** What `useLoad` returned: a loading line, the error in place of the figures, or `children(data)`. */
export function Loaded({ result, children }) {
  if (result.status === 'loading') return html`<p class="loading" aria-live="polite">Loading…</p>`;
  if (result.status === 'error') return html`<${ErrorNote} error=${result.error} />`;
  return children(result.data);
}

/**
 * A table in its own scrolling box (a wide table scrolls there, never the page). `rows` are `{key, cells, href}`;
 * a row with an `href` opens it when clicked anywhere, and its first link is the keyboard's way in. An empty table
 * says what to do instead of showing bare headers. A `wide` column keeps room for a sentence on a phone.
 */
export function DataTable({ id, caption, columns, rows, empty }) {
  if (!rows.length)
    return html`<div class="empty" id=${id} data-empty>
      ${caption ? html`<p class="empty-caption">${caption}</p>` : null}${empty}
    </div>`;
  const open = (row) => (event) => {
    if (!row.href || event.target.closest('a, button, input, select, label')) return;
    location.hash = row.href;
  };
  return html`<div class="scroll" role="region" aria-label=${caption} tabindex="0">
    <table id=${id}>
      ${caption ? html`<caption>${caption}</caption>` : null}
      <thead>
        <tr>${columns.map((c) => html`<th scope="col" class=${c.num ? 'num' : ''}>${c.label}</th>`)}</tr>
      </thead>
      <tbody>
        ${rows.map(
          (row) =>
            html`<tr key=${row.key} class=${row.href ? 'link' : ''} onClick=${open(row)}>
              ${row.cells.map((cell, i) => html`<td class=${columns[i].num ? 'num' : columns[i].wide ? 'wide' : ''}>${cell}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** Previous / next, and which rows are shown ("21–40", "of 57" when the API counts them). */
export function Pager({ id, label, from, count, total, hasPrevious, hasNext, onPrevious, onNext }) {
  if (!hasPrevious && !hasNext) return null;
  return html`<nav class="pager" aria-label=${`${label}: pages`}>
    <button type="button" id=${`${id}-prev`} disabled=${!hasPrevious} onClick=${onPrevious}>Previous</button>
    <span id=${`${id}-position`} aria-live="polite">
      ${count ? `${label} ${from}–${from + count - 1}${total === undefined ? '' : ` of ${total}`}` : `no more ${label.toLowerCase()}`}
    </span>
    <button type="button" id=${`${id}-next`} disabled=${!hasNext} onClick=${onNext}>Next</button>
  </nav>`;
}

export function CsvButton({ path, filename, label }) {
  const [error, setError] = useState(null);
  const save = async () => {
    setError(null);
    try {
      await downloadCsv(path, filename);
    } catch (err) {
      setError(err);
    }
  };
  return html`<span class="csv">
    <button type="button" onClick=${save}>${label}</button>
    ${error ? html`<${ErrorNote} error=${error} />` : null}
  </span>`;
}

export function Figure({ id, label, value, note }) {
  return html`<div class="figure">
    <span class="label">${label}</span>
    <span class="value" id=${id}>${value}</span>
    ${note ? html`<span class="note" id=${id && `${id}-change`}>${note}</span>` : null}
  </div>`;
}

/** The next steps of a project with no traffic yet: the tracker snippet, or a log import. */
export function NoTraffic() {
  const project = session.project();
  const snippet = `<script defer src="${location.origin}/js/scribe.js" data-project="${project}"></script>`;
  return html`<div class="next-steps">
    <p>No visits in this range. To count visitors, add this tag to every page of the docs site (its hostname must be one of the project's: <code>scribe project add --host …</code>):</p>
    <pre><code>${snippet}</code></pre>
    <p>Or import the site's access logs (nginx/Apache, Cloudflare, Vercel):</p>
    <pre><code>npx scribe logs import --project ${project} access.log</code></pre>
  </div>`;
}

/**
 * Runs an action that writes. A read key's 403 is not an error to show but a question: the form asks for a write
 * key (kept for this tab only, like the read key), then runs the action again with it.
 */
export function useAction() {
  const [state, setState] = useState({ busy: false, error: null, retry: null });
  const run = async (action) => {
    setState({ busy: true, error: null, retry: null });
    try {
      await action();
      setState({ busy: false, error: null, retry: null });
    } catch (err) {
      setState({ busy: false, error: err.needsWriteKey ? null : err, retry: err.needsWriteKey ? action : null });
    }
  };
  const prompt = state.retry
    ? html`<${WriteKeyPrompt}
        onKey=${(key) => {
          session.setWriteKey(key);
          run(state.retry);
        }}
        onCancel=${() => setState({ busy: false, error: null, retry: null })}
      />`
    : state.error
      ? html`<${ErrorNote} error=${state.error} />`
      : null;
  return { run, busy: state.busy, prompt };
}

function WriteKeyPrompt({ onKey, onCancel }) {
  const [key, setKey] = useState('');
  const submit = (event) => {
    event.preventDefault();
    if (key.trim()) onKey(key.trim());
  };
  return html`<form class="write-key" role="alert" onSubmit=${submit}>
    <p>This action changes the project, so it needs a <strong>write</strong> key: the key this dashboard was opened with can only read. Paste a write key of this project (kept for this browser tab only).</p>
    <label>Write key <input id="write-key" type="password" autocomplete="off" value=${key} onInput=${(e) => setKey(e.currentTarget.value)} required /></label>
    <button type="submit">Use write key</button>
    <button type="button" onClick=${onCancel}>Cancel</button>
  </form>`;
}
