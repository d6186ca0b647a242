import { html } from 'htm/preact';
import { getJson, query } from './api.js';
import { DataTable, Loaded, Pager } from './components.js';
import { age, jobHref, prLabel } from './format.js';
import { useLoad, useOffset } from './hooks.js';
import { jobsMissing } from './server.js';

const PAGE_SIZE = 20;

/** Agent jobs (each opens its live log) and the automation runs that asked for them. */
export function JobsView() {
  const missing = jobsMissing();
  return html`<h1>Jobs</h1>
    ${
      missing.length
        ? html`<div class="notice" id="jobs-not-configured" role="note">
            <p><strong>Agent jobs are not configured on this server</strong>, so no job runs and fixes cannot start. The operator still has to:</p>
            <ul>${missing.map((m) => html`<li>${m}</li>`)}</ul>
            <p>then restart Scribe. The GitHub App is created and connected at <a href="/probot">/probot</a>.</p>
          </div>`
        : null
    }
    <${JobList} configured=${!missing.length} />
    ${missing.length ? null : html`<${Automations} /><${Runs} />`}
    <${Webhooks} />`;
}

/**
 * The project's outgoing webhook subscriptions: what each receives, and the ones Scribe turned off because every
 * delivery failed for five days, with why (they stay off until turned on again with the API or the CLI).
 */
function Webhooks() {
  const list = useLoad(() => getJson('/v1/webhooks/{project}'), []);
  const state = (s) =>
    s.enabled
      ? s.failingSince
        ? html`<span class="badge failed">failing since ${age(s.failingSince)}</span>`
        : html`<span class="badge completed">on</span>`
      : html`<span class="badge failed">${s.disabledReason ? 'turned off by Scribe' : 'off'}</span>`;
  return html`<section aria-labelledby="webhooks-title">
    <h2 id="webhooks-title">Outgoing webhooks</h2>
    <${Loaded} result=${list}>
      ${(page) => html`<${DataTable}
          id="webhook-list"
          caption="Webhook subscriptions: where Scribe pushes job, review, problem and outcome events"
          columns=${[{ label: 'State' }, { label: 'URL' }, { label: 'Events' }, { label: 'Why off' }]}
          rows=${page.subscriptions.map((s) => ({
            key: s.id,
            cells: [state(s), s.url, s.events.join(', '), s.enabled ? '–' : s.disabledReason || 'turned off by hand'],
          }))}
          empty=${html`<p>No webhook subscriptions. Add one with <code>POST /v1/webhooks/{projectId}</code> or <code>scribe webhook add</code>.</p>`}
        />`}
    <//>
  </section>`;
}

function JobList({ configured }) {
  const pager = useOffset(PAGE_SIZE);
  const jobs = useLoad(
    () => getJson(`/v2/agent/{project}/jobs${query({ limit: PAGE_SIZE, offset: pager.offset })}`),
    [pager.offset],
  );
  return html`<section aria-labelledby="job-list-title">
    <h2 id="job-list-title">Agent jobs</h2>
    <${Loaded} result=${jobs}>
      ${(page) => html`<${DataTable}
          id="job-list"
          caption="Jobs, newest first; open one for its live log"
          columns=${[{ label: 'Status' }, { label: 'Asked for' }, { label: 'Started' }, { label: 'Pull request' }]}
          rows=${page.jobs.map((job) => ({
            key: job.id,
            href: jobHref(job.id),
            cells: [
              html`<span class=${`badge ${job.status}`}>${job.status}</span>`,
              html`<a href=${jobHref(job.id)}>${(job.prompt || job.id).slice(0, 120)}</a>`,
              age(job.createdAt),
              job.prLink ? html`<a href=${job.prLink}>${prLabel(job.prLink)}</a>` : '–',
            ],
          }))}
          empty=${html`<p>${
            pager.offset
              ? 'No more jobs.'
              : configured
                ? 'No jobs yet. Start one by fixing a problem (Problems), by commenting @scribe on an issue or pull request of the docs repository, or from an automation in .scribe/automations.yml.'
                : 'No jobs: agent jobs are not configured on this server (see above).'
          }</p>`}
        />
        <${Pager} id="jobs" label="Jobs" from=${pager.offset + 1} count=${page.jobs.length} hasPrevious=${pager.offset > 0} hasNext=${page.hasMore} onPrevious=${pager.previous} onNext=${pager.next} />`}
    <//>
  </section>`;
}

const describeOn = (on) =>
  on.kind === 'push'
    ? `push to ${on.repository}${on.paths ? ` (${on.paths.join(', ')})` : ''}`
    : on.kind === 'schedule'
      ? `schedule ${on.cron} UTC`
      : on.kind === 'feedback'
        ? `feedback${on.thumbsDown ? `: ${on.thumbsDown} thumbs-down` : ''}${on.comment ? ' or a comment' : ''}${on.pages ? ` on ${on.pages.join(', ')}` : ''}`
        : on.kind;

/** The automations loaded from .scribe/automations.yml, and the ones that could not be loaded, with why. */
function Automations() {
  const config = useLoad(() => getJson('/v1/automations/{project}'), []);
  return html`<section aria-labelledby="automations-title">
    <h2 id="automations-title">Automations</h2>
    <${Loaded} result=${config}>
      ${(
        c,
      ) => html`<p class="quiet">${c.configSha ? html`<code>.scribe/automations.yml</code> at ${c.configSha.slice(0, 7)}` : html`No <code>.scribe/automations.yml</code> on the docs repository's default branch.`}</p>
        <${DataTable}
          id="automation-list"
          caption="Automations: what starts a job by itself"
          columns=${[{ label: 'Automation' }, { label: 'Trigger' }, { label: 'Prompt' }]}
          rows=${c.automations.map((a) => ({ key: a.id, cells: [a.id, describeOn(a.on), a.prompt.slice(0, 120)] }))}
          empty=${html`<p>No automations. Add <code>.scribe/automations.yml</code> to the docs repository to run jobs on pushes, schedules or reader feedback.</p>`}
        />
        ${c.problems.length ? html`<ul class="error" id="automation-problems" role="alert">${c.problems.map((p) => html`<li>Not loaded: ${p.automation ?? '(the file)'}: ${p.message}</li>`)}</ul>` : null}`}
    <//>
  </section>`;
}

const short = (sha) => (sha || '').slice(0, 7);
const describeTrigger = (t) =>
  t.kind === 'push'
    ? `push ${t.repository} ${short(t.before)}..${short(t.after)}`
    : t.kind === 'feedback'
      ? `feedback on ${t.page}`
      : t.kind === 'pull_request'
        ? `pull request ${t.repository}#${t.number} at ${short(t.headSha)}`
        : t.kind;

function Runs() {
  const pager = useOffset(PAGE_SIZE);
  const runs = useLoad(
    () => getJson(`/v1/automations/{project}/runs${query({ limit: PAGE_SIZE, offset: pager.offset })}`),
    [pager.offset],
  );
  return html`<section aria-labelledby="runs-title">
    <h2 id="runs-title">Automation runs</h2>
    <${Loaded} result=${runs}>
      ${(page) => html`<${DataTable}
          id="automation-runs"
          caption="Runs of the automations in .scribe/automations.yml, newest first"
          columns=${[{ label: 'Status' }, { label: 'Automation' }, { label: 'Trigger' }, { label: 'When' }, { label: 'Job' }]}
          rows=${page.runs.map((run) => ({
            key: run.id,
            href: run.jobId ? jobHref(run.jobId) : undefined,
            cells: [
              html`<span class="badge" title=${run.reason || ''}>${run.status.replace(/_/g, ' ')}</span>`,
              run.automation,
              describeTrigger(run.trigger),
              age(run.createdAt),
              run.jobId ? html`<a href=${jobHref(run.jobId)}>${run.jobId}</a>` : '–',
            ],
          }))}
          empty=${html`<p>No automation runs yet. Automations are defined in <code>.scribe/automations.yml</code> on the docs repository's default branch.</p>`}
        />
        <${Pager} id="runs" label="Runs" from=${pager.offset + 1} count=${page.runs.length} total=${page.total} hasPrevious=${pager.offset > 0} hasNext=${pager.offset + page.runs.length < page.total} onPrevious=${pager.previous} onNext=${pager.next} />`}
    <//>
  </section>`;
}
