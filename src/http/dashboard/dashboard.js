// Scribe dashboard: a static page talking to the public API with a read key the user pastes. The key lives in
// sessionStorage only (gone when the tab closes) and is sent as a bearer header, never in a URL.
(function () {
  'use strict';
  const PAGE_SIZE = 20;
  const $ = (id) => document.getElementById(id);
  const state = { pagesOffset: 0, jobsOffset: 0, chart: null, stream: null };

  const credentials = () => ({ project: sessionStorage.getItem('scribe.project'), key: sessionStorage.getItem('scribe.key') });

  function setStatus(message) {
    $('status').textContent = message || '';
  }

  async function api(path, init = {}) {
    const { project, key } = credentials();
    const res = await fetch(path.replace('{project}', encodeURIComponent(project)), {
      ...init,
      headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(init.headers || {}) },
    });
    if (!res.ok) {
      let message = `HTTP ${res.status}`;
      try {
        message = (await res.json()).error || message;
      } catch (_) {}
      throw new Error(message);
    }
    return res;
  }
  const getJson = async (path) => (await api(path)).json();

  function isoDay(date) {
    return date.toISOString().slice(0, 10);
  }
  function rangeQuery() {
    const from = $('date-from').value;
    const to = $('date-to').value;
    return `dateFrom=${from}&dateTo=${to}`;
  }
  function cell(text, className) {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }
  function fillTable(tbody, rows) {
    tbody.replaceChildren(
      ...rows.map((cells) => {
        const tr = document.createElement('tr');
        tr.append(...cells);
        return tr;
      }),
    );
  }
  const num = (n) => Number(n).toLocaleString('en');

  function age(iso) {
    const seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
    if (seconds < 90) return `${Math.round(seconds)} s`;
    if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
    if (seconds < 129600) return `${Math.round(seconds / 3600)} h`;
    return `${Math.round(seconds / 86400)} d`;
  }

  // ---- visitors ----
  async function loadOverview() {
    const range = rangeQuery();
    const [page, daily, agents] = await Promise.all([
      getJson(`/v1/analytics/{project}/visitors?${range}&limit=${PAGE_SIZE}&offset=${state.pagesOffset}`),
      getJson(`/v1/analytics/{project}/visitors/daily?${range}`),
      getJson(`/v1/analytics/{project}/agents?${range}`),
    ]);
    $('total-human').textContent = num(page.totals.human);
    $('total-ai').textContent = num(page.totals.ai);
    $('total-all').textContent = num(page.totals.total);
    fillTable(
      $('pages').tBodies[0],
      page.visitors.map((r) => [cell(r.path), cell(num(r.human), 'num'), cell(num(r.ai), 'num'), cell(num(r.total), 'num')]),
    );
    $('pages-position').textContent = page.visitors.length
      ? `${state.pagesOffset + 1}–${state.pagesOffset + page.visitors.length}`
      : 'no pages in this range';
    $('pages-prev').disabled = state.pagesOffset === 0;
    $('pages-next').disabled = !page.hasMore;
    fillTable(
      $('agents').tBodies[0],
      agents.agents.map((a) => [cell(a.agent), cell(a.kind), cell(num(a.visitors), 'num'), cell(num(a.views), 'num')]),
    );
    drawChart(daily.days);
  }

  function drawChart(days) {
    const data = {
      labels: days.map((d) => d.date),
      datasets: [
        { label: 'Human', data: days.map((d) => d.human), borderColor: '#0969da', backgroundColor: '#0969da33', fill: true, tension: 0 },
        { label: 'AI', data: days.map((d) => d.ai), borderColor: '#8250df', backgroundColor: '#8250df33', fill: true, tension: 0 },
      ],
    };
    if (state.chart) {
      state.chart.data = data;
      state.chart.update();
      return;
    }
    state.chart = new Chart($('daily-chart'), {
      type: 'line',
      data,
      options: { animation: false, maintainAspectRatio: false, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    });
  }

  // ---- jobs ----
  async function loadJobs() {
    const page = await getJson(`/v2/agent/{project}/jobs?limit=${PAGE_SIZE}&offset=${state.jobsOffset}`);
    fillTable(
      $('job-list').tBodies[0],
      page.jobs.map((job) => {
        const status = cell('');
        const badge = document.createElement('span');
        badge.className = `badge ${job.status}`;
        badge.textContent = job.status;
        status.append(badge);
        const prompt = cell('');
        const link = document.createElement('a');
        link.href = `#job/${job.id}`;
        link.textContent = (job.prompt || job.id).slice(0, 100);
        prompt.append(link);
        const pr = cell(job.prLink ? '' : '–');
        if (job.prLink) {
          const a = document.createElement('a');
          a.href = job.prLink;
          a.textContent = job.prLink.replace(/^https?:\/\/[^/]+\//, '');
          pr.append(a);
        }
        return [status, prompt, cell(age(job.createdAt)), pr];
      }),
    );
    $('jobs-position').textContent = page.jobs.length ? `${state.jobsOffset + 1}–${state.jobsOffset + page.jobs.length}` : 'no jobs yet';
    $('jobs-prev').disabled = state.jobsOffset === 0;
    $('jobs-next').disabled = !page.hasMore;
  }

  function showJobFields(job) {
    $('job-title').textContent = `Job ${job.id}`;
    const fields = [
      ['Status', job.status],
      ['Prompt', job.prompt || ''],
      ['Branch', job.source.ref],
      ['Model', job.model],
      ['Pull request', job.prLink || '–'],
      ['Summary', job.summary || '–'],
      ['Error', job.error || '–'],
      ['Tokens', `${num(job.usage.inputTokens)} in, ${num(job.usage.outputTokens)} out`],
    ];
    $('job-fields').replaceChildren(
      ...fields.flatMap(([k, v]) => {
        const dt = document.createElement('dt');
        dt.textContent = k;
        const dd = document.createElement('dd');
        dd.textContent = v;
        dd.dataset.field = k.toLowerCase().replace(/\s+/g, '-');
        return [dt, dd];
      }),
    );
  }

  function describeEvent(event) {
    const { id, type, createdAt, ...rest } = event;
    const details = Object.entries(rest)
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    return `${createdAt.slice(11, 19)} ${type} ${details}`;
  }

  // EventSource cannot send an Authorization header, so the server-sent event stream is read with fetch.
  async function followJob(jobId) {
    stopStream();
    const controller = new AbortController();
    state.stream = controller;
    $('job-events').replaceChildren();
    $('job-live').hidden = false;
    try {
      const res = await api(`/v2/agent/{project}/job/${encodeURIComponent(jobId)}/events`, {
        headers: { accept: 'text/event-stream' },
        signal: controller.signal,
      });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let boundary;
        while ((boundary = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const eventType = (block.match(/^event: (.*)$/m) || [])[1];
          const data = (block.match(/^data: (.*)$/m) || [])[1];
          if (!data) continue;
          if (eventType === 'end') {
            showJobFields(await getJson(`/v2/agent/{project}/job/${encodeURIComponent(jobId)}`));
            continue;
          }
          const li = document.createElement('li');
          li.textContent = describeEvent(JSON.parse(data));
          $('job-events').append(li);
        }
      }
    } catch (err) {
      if (err.name !== 'AbortError') setStatus(err.message);
    } finally {
      if (state.stream === controller) $('job-live').hidden = true;
    }
  }
  function stopStream() {
    if (state.stream) state.stream.abort();
    state.stream = null;
  }

  // ---- navigation ----
  async function route() {
    setStatus('');
    const hash = location.hash.replace(/^#/, '') || 'overview';
    const [view, id] = hash.split('/');
    for (const main of document.querySelectorAll('main')) main.hidden = main.id !== view;
    for (const a of document.querySelectorAll('nav a')) a.classList.toggle('current', a.dataset.nav === view || (view === 'job' && a.dataset.nav === 'jobs'));
    if (view !== 'job') stopStream();
    const { project, key } = credentials();
    if (!project || !key) {
      setStatus('Paste a project id and a read API key to begin.');
      return;
    }
    try {
      if (view === 'overview') await loadOverview();
      else if (view === 'jobs') await loadJobs();
      else if (view === 'job') {
        showJobFields(await getJson(`/v2/agent/{project}/job/${encodeURIComponent(id)}`));
        void followJob(id);
      }
      document.body.dataset.loaded = view;
    } catch (err) {
      setStatus(err.message);
    }
  }

  function init() {
    const today = new Date();
    const to = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1));
    $('date-to').value = isoDay(to);
    $('date-from').value = isoDay(new Date(to.getTime() - 30 * 86400000));
    const { project, key } = credentials();
    if (project) $('project').value = project;
    if (key) $('key').value = key;
    $('connect').addEventListener('submit', (e) => {
      e.preventDefault();
      sessionStorage.setItem('scribe.project', $('project').value.trim());
      sessionStorage.setItem('scribe.key', $('key').value.trim());
      route();
    });
    $('forget').addEventListener('click', () => {
      sessionStorage.removeItem('scribe.key');
      $('key').value = '';
      route();
    });
    $('refresh').addEventListener('click', () => {
      state.pagesOffset = 0;
      route();
    });
    $('pages-prev').addEventListener('click', () => {
      state.pagesOffset = Math.max(0, state.pagesOffset - PAGE_SIZE);
      route();
    });
    $('pages-next').addEventListener('click', () => {
      state.pagesOffset += PAGE_SIZE;
      route();
    });
    $('jobs-prev').addEventListener('click', () => {
      state.jobsOffset = Math.max(0, state.jobsOffset - PAGE_SIZE);
      route();
    });
    $('jobs-next').addEventListener('click', () => {
      state.jobsOffset += PAGE_SIZE;
      route();
    });
    window.addEventListener('hashchange', route);
    route();
  }
  init();
})();
