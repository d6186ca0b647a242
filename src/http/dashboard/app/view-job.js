import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { getJson, request } from './api.js';
import { ErrorNote, Loaded } from './components.js';
import { num, prLabel } from './format.js';
import { useLoad } from './hooks.js';

const jobPath = (id) => `/v2/agent/{project}/job/${encodeURIComponent(id)}`;

/** One job: what asked for it, where it stands, its pull request, and its event log as it happens. */
export function JobView({ id }) {
  const [ended, setEnded] = useState(0);
  const job = useLoad(() => getJson(jobPath(id)), [ended]);
  return html`<p><a href="#jobs">← all jobs</a></p>
    <h1 id="job-title">Job <code>${id}</code></h1>
    <${Loaded} result=${job}>${(j) => html`<${JobFields} job=${j} />`}<//>
    <${EventLog} id=${id} onEnd=${() => setEnded((n) => n + 1)} />`;
}

function JobFields({ job }) {
  const fields = [
    ['Status', html`<span class=${`badge ${job.status}`}>${job.status}</span>`, 'status'],
    ['Asked for', job.prompt || '–', 'prompt'],
    ...(job.cause?.problems?.length
      ? [
          [
            'Started for',
            html`<ul class="plain">${job.cause.problems.map((p) => html`<li><span class="kind">${p.kind.replace('-', ' ')}</span> ${p.title}</li>`)}</ul>`,
            'cause',
          ],
        ]
      : []),
    ...(job.error ? [['Failed because', job.error, 'error']] : []),
    [
      'Pull request',
      job.prLink
        ? html`<a href=${job.prLink}>${prLabel(job.prLink)}</a>${job.pr ? ` (${job.pr.merged ? 'merged' : job.pr.state})` : ''}`
        : 'none yet',
      'pr',
    ],
    ['Summary', job.summary || '–', 'summary'],
    ['Repository', `${job.source.repository} from ${job.source.ref}`, 'repository'],
    ['Model', job.model, 'model'],
    ['Tokens', `${num(job.usage.inputTokens)} in, ${num(job.usage.outputTokens)} out`, 'tokens'],
  ];
  return html`<dl class="fields">
    ${fields.map(([label, value, name]) => html`<dt>${label}</dt><dd data-field=${name}>${value}</dd>`)}
  </dl>`;
}

function describeEvent(event) {
  const { id, type, createdAt, ...rest } = event;
  const details = Object.entries(rest)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return { id, time: createdAt.slice(11, 19), type, details };
}

/**
 * The job's server-sent event stream, read with fetch: EventSource cannot send an Authorization header. It ends
 * (`event: end`) when the job does; then the job's fields are read again.
 */
function EventLog({ id, onEnd }) {
  const [events, setEvents] = useState([]);
  const [live, setLive] = useState(true);
  const [error, setError] = useState(null);
  useEffect(() => {
    const controller = new AbortController();
    (async () => {
      try {
        const res = await request(`${jobPath(id)}/events`, { accept: 'text/event-stream', signal: controller.signal });
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let boundary = buffer.indexOf('\n\n');
          while (boundary >= 0) {
            const block = buffer.slice(0, boundary);
            buffer = buffer.slice(boundary + 2);
            boundary = buffer.indexOf('\n\n');
            const type = block.match(/^event: (.*)$/m)?.[1];
            const data = block.match(/^data: (.*)$/m)?.[1];
            if (!data) continue;
            if (type === 'end') onEnd();
            else setEvents((list) => [...list, describeEvent(JSON.parse(data))]);
          }
        }
      } catch (err) {
        if (err.name !== 'AbortError') setError(err);
      } finally {
        if (!controller.signal.aborted) setLive(false);
      }
    })();
    return () => controller.abort();
  }, [id]);
  return html`<section aria-labelledby="events-title">
    <h2 id="events-title">Event log ${live ? html`<span class="live" id="job-live">live</span>` : null}</h2>
    ${error ? html`<${ErrorNote} error=${error} />` : null}
    ${events.length ? null : html`<p class="quiet">No events yet${live ? ': they appear here as the job runs.' : '.'}</p>`}
    <ol id="job-events" aria-live="polite">
      ${events.map((e) => html`<li key=${e.id}><time>${e.time}</time> <strong>${e.type}</strong> ${e.details}</li>`)}
    </ol>
  </section>`;
}
