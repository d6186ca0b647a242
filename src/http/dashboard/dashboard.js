// Scribe dashboard: a static page talking to the public API with a read key the user pastes. The key lives in
// sessionStorage only (gone when the tab closes) and is sent as a bearer header, never in a URL.
(() => {
  const PAGE_SIZE = 20;
  const $ = (id) => document.getElementById(id);
  const state = { pagesOffset: 0, jobsOffset: 0, runsOffset: 0, chart: null, purposeChart: null, stream: null };

  const credentials = () => ({
    project: sessionStorage.getItem('scribe.project'),
    key: sessionStorage.getItem('scribe.key'),
  });

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
      page.visitors.map((r) => [
        cell(r.path),
        cell(num(r.human), 'num'),
        cell(num(r.ai), 'num'),
        cell(num(r.total), 'num'),
      ]),
    );
    $('pages-position').textContent = page.visitors.length
      ? `${state.pagesOffset + 1}–${state.pagesOffset + page.visitors.length}`
      : 'no pages in this range';
    $('pages-prev').disabled = state.pagesOffset === 0;
    $('pages-next').disabled = !page.hasMore;
    fillTable(
      $('agents').tBodies[0],
      agents.agents.map((a) => [
        cell(a.agent),
        cell(a.kind),
        cell(num(a.visitors), 'num'),
        cell(num(a.verifiedVisitors), 'num'),
        cell(num(a.unverifiableVisitors), 'num'),
        cell(num(a.views), 'num'),
      ]),
    );
    fillTable(
      $('spoofed').tBodies[0],
      agents.spoofed.map((a) => [cell(a.agent), cell(num(a.visitors), 'num'), cell(num(a.views), 'num')]),
    );
    drawChart(daily.days);
    await loadSignals(range);
    await loadAiTraffic(range);
  }

  // Feedback and searches. Comments are text from strangers: cell() sets textContent, never HTML.
  async function loadSignals(range) {
    const [feedback, searches] = await Promise.all([
      getJson(`/v1/analytics/{project}/feedback?${range}&limit=${PAGE_SIZE}`),
      getJson(`/v1/analytics/{project}/searches?${range}&limit=${PAGE_SIZE}`),
    ]);
    const vote = (helpful) => (helpful === true ? 'yes' : helpful === false ? 'no' : '–');
    fillTable(
      $('feedback-list').tBodies[0],
      feedback.feedback.map((f) => [
        cell(f.path),
        cell(vote(f.helpful)),
        cell(f.comment || '', 'comment'),
        cell(f.createdAt ? age(f.createdAt) : '–'),
      ]),
    );
    fillTable(
      $('searches').tBodies[0],
      searches.searches.map((s) => [
        cell(s.searchQuery),
        cell(num(s.hits), 'num'),
        cell(`${Math.round(s.ctr * 100)}%`, 'num'),
        cell(s.topClickedPage || '–'),
      ]),
    );
  }

  // ---- AI traffic: purpose split, referrals, agent × page, misses (the first page of each) ----
  const PURPOSES = [
    ['Human', 'humanViews'],
    ['Search / indexing', 'searchIndexViews'],
    ['Training', 'trainingViews'],
    ['Assistant', 'assistantViews'],
    ['Agent', 'agentViews'],
    ['Other AI', 'otherAiViews'],
    ['Unverified AI (spoofed)', 'unverifiedAiViews'],
  ];
  async function loadAiTraffic(range) {
    const [purposes, referrals, agentPages, misses] = await Promise.all([
      getJson(`/v1/analytics/{project}/ai/purposes?${range}&limit=1`),
      getJson(`/v1/analytics/{project}/ai/referrals?${range}&limit=${PAGE_SIZE}`),
      getJson(`/v1/analytics/{project}/ai/agent-pages?${range}&limit=${PAGE_SIZE}`),
      getJson(`/v1/analytics/{project}/ai/misses?${range}&limit=${PAGE_SIZE}`),
    ]);
    const { views, visitors } = purposes.totals;
    fillTable(
      $('purposes').tBodies[0],
      PURPOSES.map(([label, column]) => [
        cell(label),
        cell(num(views[column]), 'num'),
        cell(num(visitors[column]), 'num'),
      ]),
    );
    fillTable(
      $('referrals').tBodies[0],
      referrals.assistants.map((r) => [cell(r.assistant), cell(num(r.views), 'num'), cell(num(r.visitors), 'num')]),
    );
    fillTable(
      $('agent-pages').tBodies[0],
      agentPages.rows.map((r) => [
        cell(r.agent),
        cell(r.path),
        cell(num(r.views), 'num'),
        cell(num(r.visitors), 'num'),
      ]),
    );
    fillTable(
      $('misses').tBodies[0],
      misses.rows.map((r) => [cell(r.path), cell(r.agent), cell(String(r.status), 'num'), cell(num(r.count), 'num')]),
    );
    const data = {
      labels: PURPOSES.map(([label]) => label),
      datasets: [
        { label: 'Views', data: PURPOSES.map(([, c]) => views[c]), backgroundColor: '#8250df' },
        { label: 'Visitors', data: PURPOSES.map(([, c]) => visitors[c]), backgroundColor: '#0969da' },
      ],
    };
    if (state.purposeChart) {
      state.purposeChart.data = data;
      state.purposeChart.update();
      return;
    }
    state.purposeChart = new Chart($('purpose-chart'), {
      type: 'bar',
      data,
      options: {
        animation: false,
        maintainAspectRatio: false,
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
  }

  function drawChart(days) {
    const data = {
      labels: days.map((d) => d.date),
      datasets: [
        {
          label: 'Human',
          data: days.map((d) => d.human),
          borderColor: '#0969da',
          backgroundColor: '#0969da33',
          fill: true,
          tension: 0,
        },
        {
          label: 'AI',
          data: days.map((d) => d.ai),
          borderColor: '#8250df',
          backgroundColor: '#8250df33',
          fill: true,
          tension: 0,
        },
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
      options: {
        animation: false,
        maintainAspectRatio: false,
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
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
    $('jobs-position').textContent = page.jobs.length
      ? `${state.jobsOffset + 1}–${state.jobsOffset + page.jobs.length}`
      : 'no jobs yet';
    $('jobs-prev').disabled = state.jobsOffset === 0;
    $('jobs-next').disabled = !page.hasMore;
  }

  // ---- automations ----
  function link(href, text) {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = text;
    return a;
  }
  function badgeCell(text, kind) {
    const td = cell('');
    const badge = document.createElement('span');
    badge.className = `badge ${kind}`;
    badge.textContent = text;
    td.append(badge);
    return td;
  }
  const RUN_BADGE = {
    running: 'active',
    pull_request_opened: 'completed',
    pull_request_updated: 'completed',
    no_changes: 'archived',
    failed: 'failed',
    skipped: 'archived',
  };

  function describeOn(on) {
    if (on.kind === 'push') return `push to ${on.repository}${on.paths ? ` (${on.paths.join(', ')})` : ''}`;
    if (on.kind === 'schedule') return `schedule ${on.cron} UTC`;
    const when = [on.thumbsDown ? `${on.thumbsDown} thumbs-down` : '', on.comment ? 'a comment' : '']
      .filter(Boolean)
      .join(' or ');
    return `feedback: ${when}${on.pages ? ` on ${on.pages.join(', ')}` : ''}`;
  }

  async function loadAutomations() {
    const [config, page] = await Promise.all([
      getJson('/v1/automations/{project}'),
      getJson(`/v1/automations/{project}/runs?limit=${PAGE_SIZE}&offset=${state.runsOffset}`),
    ]);
    $('automations-config').textContent = config.configSha
      ? `.scribe/automations.yml at ${config.configSha.slice(0, 7)}`
      : 'No .scribe/automations.yml on the default branch.';
    fillTable(
      $('automation-list').tBodies[0],
      config.automations.map((a) => [cell(a.id), cell(describeOn(a.on)), cell(a.prompt.slice(0, 100))]),
    );
    $('automation-problems').replaceChildren(
      ...config.problems.map((p) => {
        const li = document.createElement('li');
        li.className = 'problem';
        li.textContent = `Not loaded: ${p.automation ?? '(file)'}: ${p.message}`;
        return li;
      }),
    );
    fillTable(
      $('automation-runs').tBodies[0],
      page.runs.map((run) => {
        const trigger =
          run.trigger.kind === 'push'
            ? `push ${run.trigger.repository} ${(run.trigger.before || '').slice(0, 7)}..${(run.trigger.after || '').slice(0, 7)}`
            : run.trigger.kind === 'feedback'
              ? `feedback on ${run.trigger.page}`
              : run.trigger.kind;
        const status = badgeCell(run.status.replace(/_/g, ' '), RUN_BADGE[run.status] || '');
        if (run.reason) status.title = run.reason;
        const job = cell(run.jobId ? '' : '–');
        if (run.jobId) job.append(link(`#job/${run.jobId}`, run.jobId));
        const pr = cell(run.prLink ? '' : '–');
        if (run.prLink) pr.append(link(run.prLink, run.prLink.replace(/^https?:\/\/[^/]+\//, '')));
        return [status, cell(run.automation), cell(trigger), cell(age(run.createdAt)), job, pr];
      }),
    );
    $('runs-position').textContent = page.runs.length
      ? `${state.runsOffset + 1}–${state.runsOffset + page.runs.length} of ${page.total}`
      : 'no runs yet';
    $('runs-prev').disabled = state.runsOffset === 0;
    $('runs-next').disabled = state.runsOffset + page.runs.length >= page.total;
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
    for (const a of document.querySelectorAll('nav a'))
      a.classList.toggle('current', a.dataset.nav === view || (view === 'job' && a.dataset.nav === 'jobs'));
    if (view !== 'job') stopStream();
    const { project, key } = credentials();
    if (!project || !key) {
      setStatus('Paste a project id and a read API key to begin.');
      return;
    }
    try {
      if (view === 'overview') await loadOverview();
      else if (view === 'jobs') await loadJobs();
      else if (view === 'automations') await loadAutomations();
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
    $('runs-prev').addEventListener('click', () => {
      state.runsOffset = Math.max(0, state.runsOffset - PAGE_SIZE);
      void loadAutomations();
    });
    $('runs-next').addEventListener('click', () => {
      state.runsOffset += PAGE_SIZE;
      void loadAutomations();
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
