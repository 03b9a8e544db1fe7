// plan2code viewer: the plan beside the code.
//
// One script for two pages. Served by `plan2code serve` (and the API Lambda) it is a small
// single-page app over the JSON API under /api/v1/agent: "My jobs" and "New mapping" at `/`, a
// job at `/jobs/{id}` with its live timeline (the SSE stream, read with fetch so the bearer
// token travels in a header), pause / resume / cancel, the plan graph, the node panel and the
// hot lines. Inside a report written by `plan2code map --format html` the same views render
// from the JSON embedded in the file (`#report-data`), with no server at all.
//
// Layout, costs and syntax highlighting are computed by the server (functions/core/src/view), so
// this file only draws. Every string from a plan or a repository is put into the page as text,
// except source lines, which the server has already escaped and highlighted.
(() => {
  'use strict';

  const API = '/api/v1/agent';
  const TOKEN_KEY = 'plan2code.token';
  const NODE_W = 220;
  const NODE_H = 52;
  const CONTEXT_LINES = 8;
  const BANDS = {
    confirmed: '✔ confirmed',
    probable: '≈ probable',
    uncertain: '? uncertain',
    unmapped: '– not mapped',
  };
  const METRICS = {
    none: { label: 'no overlay' },
    timeMs: { label: 'time', format: (v) => formatMs(v) },
    rows: { label: 'rows', format: (v) => formatCount(v) },
    shuffleBytes: { label: 'shuffle bytes', format: (v) => formatBytes(v) },
    spillBytes: { label: 'spill bytes', format: (v) => formatBytes(v) },
  };

  const reportElement = document.getElementById('report-data');
  const report = reportElement ? JSON.parse(reportElement.textContent) : null;
  const app = document.getElementById('app');

  // ---------- small helpers ----------

  function h(tag, attrs, ...children) {
    const svg = ['svg', 'g', 'rect', 'text', 'path', 'title', 'defs', 'marker'].includes(tag);
    const el = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag) : document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
      // through the CSSOM: the page's Content-Security-Policy refuses style attributes
      else if (name === 'style') el.style.cssText = value;
      else el.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === undefined || child === null || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  function formatMs(ms) {
    if (ms >= 60000) return (ms / 60000).toFixed(1) + ' min';
    if (ms >= 1000) return (ms / 1000).toFixed(1) + ' s';
    return Math.round(ms) + ' ms';
  }
  function formatCount(n) { return Math.round(n).toLocaleString('en-US'); }
  function formatBytes(b) {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0;
    while (b >= 1024 && i < units.length - 1) { b /= 1024; i++; }
    return (i ? b.toFixed(1) : Math.round(b)) + ' ' + units[i];
  }
  function band(mapping) {
    if (!mapping || !mapping.mappedCode) return 'unmapped';
    return mapping.confidenceStatus;
  }
  function lineRange(lines) {
    const [start, end] = String(lines).split('-').map((n) => parseInt(n, 10));
    return { start, end: Number.isFinite(end) ? end : start };
  }
  function nodeKey(m) { return m.executionId != null ? `${m.executionId}:${m.dagNodeId}` : m.dagNodeId; }

  // ---------- the server: token, JSON calls, the event stream ----------

  // The login link's `?token=` (plan2code serve), or an OpenID provider's implicit-grant redirect
  // (`#id_token=…` / `#access_token=…`, e.g. Cognito's hosted UI on AWS): kept for this tab only,
  // and taken out of the address bar so it is neither bookmarked nor shared.
  function captureToken() {
    const url = new URL(window.location.href);
    const fragment = new URLSearchParams(url.hash.slice(1));
    const token = url.searchParams.get('token') || fragment.get('id_token') || fragment.get('access_token');
    if (token) {
      sessionStorage.setItem(TOKEN_KEY, token);
      url.searchParams.delete('token');
      const keepHash = fragment.has('id_token') || fragment.has('access_token') ? '' : url.hash;
      history.replaceState(null, '', url.pathname + url.search + keepHash);
    }
  }
  function token() { return sessionStorage.getItem(TOKEN_KEY) || ''; }

  async function api(path, options = {}) {
    const response = await fetch(API + path, {
      ...options,
      headers: { Authorization: 'Bearer ' + token(), 'Content-Type': 'application/json' },
    });
    const text = await response.text();
    const body = text ? JSON.parse(text) : null;
    if (!response.ok) {
      const message = body && body.message ? body.message : response.statusText;
      throw new Error(`${response.status} ${body && body.error ? body.error + ': ' : ''}${message}`);
    }
    return body;
  }

  // Follows the job's SSE stream until it ends (the job finished) or `signal` aborts;
  // reconnects with Last-Event-ID after a drop.
  async function follow(id, onEvent, signal) {
    let last = 0;
    for (;;) {
      let ended = false;
      try {
        const response = await fetch(`${API}/jobs/${encodeURIComponent(id)}/stream`, {
          headers: { Authorization: 'Bearer ' + token(), 'Last-Event-ID': String(last) },
          signal,
        });
        if (!response.ok) return;
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) { ended = true; break; }
          buffer += decoder.decode(value, { stream: true });
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const message = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let data = '';
            for (const line of message.split('\n')) {
              if (line.startsWith('id:')) last = parseInt(line.slice(3), 10) || last;
              else if (line.startsWith('data:')) data += line.slice(5).trimStart();
            }
            if (data) onEvent(JSON.parse(data));
          }
        }
      } catch (err) {
        if (signal.aborted) return;
      }
      if (ended || signal.aborted) return;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  // ---------- pages ----------

  let pageAbort = new AbortController();

  function route() {
    pageAbort.abort();
    pageAbort = new AbortController();
    app.replaceChildren();
    if (report) return showReport();
    const match = window.location.pathname.match(/^\/jobs\/([^/]+)$/);
    if (match) return showJob(decodeURIComponent(match[1]));
    return showHome();
  }

  function navigate(path) {
    history.pushState(null, '', path);
    route();
  }

  function showHome() {
    if (!token()) {
      app.append(h('div', { class: 'card' },
        h('h1', {}, 'Sign in'),
        h('p', {}, 'Open the link `plan2code serve` printed (http://127.0.0.1:PORT/?token=…).')));
      return;
    }
    const error = h('p', { class: 'error', id: 'form-error' });
    const form = h('form', { class: 'new-job', id: 'new-job' },
      h('label', { for: 'repo' }, 'Repository'),
      h('input', { id: 'repo', name: 'repositoryUrl', required: true, placeholder: 'https://github.com/owner/repo or file:///path' }),
      h('label', { for: 'branch' }, 'Branch / commit'),
      h('div', {},
        h('input', { id: 'branch', name: 'branch', placeholder: 'branch (optional)' }), ' ',
        h('input', { id: 'commit', name: 'commit', placeholder: 'commit (optional)' })),
      h('label', { for: 'plan' }, 'Plan'),
      h('div', {},
        h('textarea', { id: 'plan', name: 'planContent', placeholder: 'explain() / explain("formatted") text, the Spark UI SQL JSON, or an event log' }),
        h('div', {}, 'or upload: ', h('input', { type: 'file', id: 'plan-file' }))),
      h('span', {}),
      h('div', {}, h('button', { class: 'primary', type: 'submit', id: 'create' }, 'Map the plan'), error));
    form.querySelector('#plan-file').addEventListener('change', async (e) => {
      const file = e.target.files[0];
      if (file) form.querySelector('#plan').value = await file.text();
    });
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      error.textContent = '';
      const body = { repositoryUrl: form.repo.value.trim(), planContent: form.plan.value };
      if (form.branch.value.trim()) body.branch = form.branch.value.trim();
      if (form.commit.value.trim()) body.commit = form.commit.value.trim();
      try {
        const created = await api('/jobs', { method: 'POST', body: JSON.stringify(body) });
        navigate('/jobs/' + encodeURIComponent(created.id));
      } catch (err) {
        error.textContent = err.message;
      }
    });
    const jobs = h('tbody', { id: 'my-jobs' });
    app.append(
      h('h1', {}, 'New mapping'), h('div', { class: 'card' }, form),
      h('h2', {}, 'My jobs'),
      h('div', { class: 'card' }, h('table', {},
        h('thead', {}, h('tr', {}, ['Job', 'Status', 'Repository', 'Nodes'].map((t) => h('th', {}, t)))),
        jobs)));
    api('/jobs').then((list) => {
      const rows = (list.jobs || []).map((job) => h('tr', {},
        h('td', {}, h('a', { href: '/jobs/' + encodeURIComponent(job.id), onclick: (e) => { e.preventDefault(); navigate('/jobs/' + encodeURIComponent(job.id)); } }, job.id)),
        h('td', {}, h('span', { class: 'status ' + job.status }, job.status)),
        h('td', {}, job.repoConfig ? job.repoConfig.url : ''),
        h('td', { class: 'num' }, job.statistics ? job.statistics.totalNodes : '')));
      jobs.replaceChildren(...(rows.length ? rows : [h('tr', {}, h('td', { colspan: 4, class: 'muted' }, 'No jobs yet.'))]));
    }).catch((err) => jobs.replaceChildren(h('tr', {}, h('td', { colspan: 4, class: 'error' }, err.message))));
  }

  // ---------- a job ----------

  // What a job page draws from, whether live or from a report.
  function jobModel(job, overview, sourceOf) {
    const mappings = new Map();
    for (const m of (job.result && job.result.mappings) || []) mappings.set(nodeKey(m), m);
    return { job, overview, mappings, sourceOf, execution: 0, metric: 'none', selected: null };
  }

  function showReport() {
    const model = jobModel(report.job, report.overview, async (path) => report.sources[path] || null);
    app.append(jobHeader(model, null), jobWorkspace(model));
  }

  function showJob(id) {
    const signal = pageAbort.signal;
    const sourceCache = new Map();
    const sourceOf = (path) => {
      if (!sourceCache.has(path)) {
        sourceCache.set(path, api(`/jobs/${encodeURIComponent(id)}/source?path=${encodeURIComponent(path)}`)
          .then((s) => s.lines).catch(() => null));
      }
      return sourceCache.get(path);
    };
    const holder = h('div', { id: 'job' }, h('p', { class: 'muted' }, 'Loading…'));
    app.append(holder);
    const live = { feed: h('ul', { class: 'feed', id: 'feed' }), stages: {}, mapped: 0 };
    let model = null;
    let redrawTimer = null;

    async function load() {
      const [job, overview] = await Promise.all([
        api('/jobs/' + encodeURIComponent(id)),
        api(`/jobs/${encodeURIComponent(id)}/view`),
      ]);
      const previous = model;
      model = jobModel(job, overview, sourceOf);
      if (previous) {
        model.execution = Math.min(previous.execution, overview.graphs.length - 1);
        model.metric = previous.metric;
        model.selected = previous.selected;
      }
      // a redraw while the job runs keeps what the reader was looking at: the graph's scroll
      // position and whether the activity feed is open
      const graph = holder.querySelector('#graph');
      const scroll = graph ? [graph.scrollLeft, graph.scrollTop] : null;
      const activity = holder.querySelector('details');
      const activityOpen = activity ? activity.open : null;
      holder.replaceChildren(jobHeader(model, { id, feed: live.feed, stages: live.stages, reload: load }), jobWorkspace(model));
      const redrawn = holder.querySelector('#graph');
      if (scroll && redrawn) [redrawn.scrollLeft, redrawn.scrollTop] = scroll;
      const details = holder.querySelector('details');
      if (activityOpen !== null && details) details.open = activityOpen;
    }
    function redrawSoon() {
      if (redrawTimer) return;
      redrawTimer = setTimeout(() => { redrawTimer = null; load().catch(() => {}); }, 1500);
    }
    load().catch((err) => holder.replaceChildren(h('p', { class: 'error' }, err.message)));
    follow(id, (event) => {
      const data = event.data || {};
      if (event.type === 'stage_started') live.stages[data.stage] = 'active';
      if (event.type === 'stage_completed') live.stages[data.stage] = 'done';
      if (event.type === 'mapping_finalized') live.mapped += 1;
      const summary = data.stage || data.dagNodeId || data.status || data.message || '';
      live.feed.prepend(h('li', {}, `#${event.seq} ${event.type.replace(/_/g, ' ')} ${summary}`));
      while (live.feed.childElementCount > 200) live.feed.lastChild.remove();
      if (event.type === 'job_completed' || event.type === 'error') load().catch(() => {});
      else redrawSoon();
    }, signal);
  }

  function jobHeader(model, live) {
    const { job } = model;
    const total = job.statistics ? job.statistics.totalNodes : 0;
    const done = job.statistics ? job.statistics.mappedNodes + (job.statistics.unmappedNodes || 0) : 0;
    const head = h('div', { class: 'job-head' },
      h('h1', {}, 'Job ', h('code', { id: 'job-id' }, job.id)),
      h('span', { class: 'status ' + job.status, id: 'job-status' }, job.status),
      h('span', { class: 'muted' }, job.repoConfig ? job.repoConfig.url : '',
        job.repoConfig && job.repoConfig.commit ? ' @ ' + String(job.repoConfig.commit).slice(0, 10) : ''),
      total ? h('span', {}, h('progress', { max: total, value: done }), ` ${done} / ${total} nodes`) : null);
    const parts = [head];
    if (live) {
      const control = (action) => async () => {
        try {
          await api(`/jobs/${encodeURIComponent(live.id)}/${action}`, { method: 'POST' });
          live.reload().catch(() => {});
        } catch (err) {
          problem.textContent = `${action}: ${err.message}`;
        }
      };
      const active = ['queued', 'running'].includes(job.status);
      const problem = h('span', { class: 'error', id: 'control-error' });
      head.append(
        h('button', { id: 'pause', disabled: !active, onclick: control('pause') }, 'Pause'),
        h('button', { id: 'resume', disabled: job.status !== 'paused', onclick: control('resume') }, 'Resume'),
        h('button', { id: 'cancel', disabled: !(active || job.status === 'paused'), onclick: control('cancel') }, 'Cancel'),
        problem);
      const stage = (name, label) => {
        const finished = ['completed', 'failed', 'cancelled'].includes(job.status);
        const state = finished && job.status === 'completed' ? 'done' : live.stages[name] || '';
        return h('div', { class: 'stage ' + state }, label);
      };
      parts.push(
        h('div', { class: 'timeline', id: 'timeline' },
          stage('load_repo_context', '1 · index the repository'),
          h('div', { class: 'stage ' + (job.status === 'completed' ? 'done' : done > 0 ? 'active' : '') },
            `2 · map nodes (${done}/${total})`),
          h('div', { class: 'stage ' + (job.status === 'completed' ? 'done' : '') }, '3 · complete')),
        h('details', { open: !['completed'].includes(job.status) }, h('summary', {}, 'Activity'), live.feed));
    }
    if (job.error) parts.push(h('p', { class: 'error' }, job.error));
    return h('div', {}, parts);
  }

  function jobWorkspace(model) {
    const graphs = model.overview.graphs;
    if (!graphs.length) return h('p', { class: 'muted' }, 'No plan yet.');
    const graphBox = h('div', { class: 'graph', id: 'graph' });
    const panel = h('div', { class: 'panel card', id: 'node-panel' }, h('p', { class: 'muted' }, 'Click a node to see its code.'));
    const hot = h('div', { id: 'hot-lines' });
    const toolbar = h('div', { class: 'toolbar' });
    if (graphs.length > 1) {
      const select = h('select', { id: 'execution' }, graphs.map((g, i) => h('option', { value: i, selected: i === model.execution },
        `execution ${g.executionId ?? i}${g.description ? ' · ' + g.description.slice(0, 60) : ''} (${g.nodes.length} nodes)`)));
      select.addEventListener('change', () => { model.execution = Number(select.value); model.selected = null; draw(); });
      toolbar.append(h('label', {}, 'Execution ', select));
    }
    if (graphs.some((g) => g.hasMetrics)) {
      const select = h('select', { id: 'metric' }, Object.entries(METRICS).map(([k, m]) => h('option', { value: k, selected: k === model.metric }, m.label)));
      select.addEventListener('change', () => { model.metric = select.value; draw(); });
      toolbar.append(h('label', {}, 'Heat ', select));
    }
    toolbar.append(h('span', { class: 'muted' }, Object.values(BANDS).join('   ')));

    function draw() {
      graphBox.replaceChildren(drawGraph(model, (key) => select(key)));
      if (model.selected) select(model.selected);
    }
    function select(key) {
      model.selected = key;
      for (const el of graphBox.querySelectorAll('.node')) el.classList.toggle('selected', el.dataset.key === key);
      const node = graphs[model.execution].nodes.find((n) => n.key === key);
      showNode(model, node, panel);
    }
    function selectAnywhere(key) {
      const index = graphs.findIndex((g) => g.nodes.some((n) => n.key === key));
      if (index >= 0 && index !== model.execution) {
        model.execution = index;
        const selectEl = toolbar.querySelector('#execution');
        if (selectEl) selectEl.value = String(index);
        draw();
      }
      select(key);
      const el = graphBox.querySelector(`.node[data-key="${CSS.escape(key)}"]`);
      if (el && el.scrollIntoView) el.scrollIntoView({ block: 'center', inline: 'center' });
    }
    draw();
    hot.append(hotLines(model, selectAnywhere));
    return h('div', {}, toolbar, h('div', { class: 'workspace' }, graphBox, panel), hot);
  }

  function drawGraph(model, onSelect) {
    const graph = model.overview.graphs[model.execution];
    const metric = model.metric;
    const peak = metric === 'none' ? 0 : Math.max(0, ...graph.nodes.map((n) => n.cost[metric] || 0));
    const pad = 16;
    const svg = h('svg', {
      width: graph.width + 2 * pad, height: graph.height + 2 * pad,
      viewBox: `${-pad} ${-pad} ${graph.width + 2 * pad} ${graph.height + 2 * pad}`, role: 'img',
      'aria-label': 'plan graph',
    });
    svg.append(h('defs', {}, h('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
      h('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#9aa5ad' }))));
    for (const [from, to] of graph.edges) {
      const a = graph.nodes[from];
      const b = graph.nodes[to];
      const x1 = a.x + NODE_W / 2; const y1 = a.y + NODE_H;
      const x2 = b.x + NODE_W / 2; const y2 = b.y;
      const mid = (y1 + y2) / 2;
      svg.append(h('path', { class: 'edge', d: `M ${x1} ${y1} C ${x1} ${mid}, ${x2} ${mid}, ${x2} ${y2}`, 'marker-end': 'url(#arrow)' }));
    }
    for (const node of graph.nodes) {
      const mapping = model.mappings.get(node.key);
      const b = band(mapping);
      const value = metric === 'none' ? 0 : node.cost[metric] || 0;
      const heat = peak > 0 ? value / peak : 0;
      const fill = heat > 0 ? `rgba(214, 69, 65, ${0.1 + 0.6 * heat})` : '#fff';
      const label = node.name.length > 30 ? node.name.slice(0, 29) + '…' : node.name;
      const g = h('g', {
        class: `node ${b}${node.nodeKind === 'engine' ? ' engine' : ''}`, 'data-key': node.key,
        transform: `translate(${node.x},${node.y})`, tabindex: 0,
        onclick: () => onSelect(node.key),
        onkeydown: (e) => { if (e.key === 'Enter') onSelect(node.key); },
      },
      h('title', {}, `${node.name} (#${node.dagNodeId}) — ${BANDS[b]}${node.location ? ' — ' + node.location : ''}`),
      h('rect', { width: NODE_W, height: NODE_H, style: `fill:${fill}` }),
      h('text', { x: 8, y: 17 }, label),
      h('text', { class: 'band', x: NODE_W - 8, y: 17, 'text-anchor': 'end' }, BANDS[b].split(' ')[0]),
      h('text', { class: 'loc', x: 8, y: 34 }, node.location ? shorten(node.location, 34) : node.nodeKind === 'engine' ? 'engine' : ''),
      metric !== 'none' && value > 0 ? h('text', { class: 'loc', x: 8, y: 47 }, `${METRICS[metric].label}: ${METRICS[metric].format(value)}`) : null);
      svg.append(g);
    }
    return svg;
  }

  function shorten(text, max) { return text.length > max ? '…' + text.slice(text.length - max + 1) : text; }

  async function showNode(model, node, panel) {
    if (!node) return;
    const mapping = model.mappings.get(node.key);
    const b = band(mapping);
    const code = h('div', { id: 'code' });
    const parts = [
      h('h2', {}, node.name, ' ', h('span', { class: 'muted' }, '#' + node.dagNodeId)),
      h('p', {}, h('span', { class: 'band-label ' + b, id: 'band' }, BANDS[b]),
        mapping ? ` · confidence ${mapping.confidence.toFixed(2)}` : '',
        node.nodeKind === 'engine' ? ' · inserted by the engine' : ''),
    ];
    if (node.cost && Object.values(node.cost).some((v) => v > 0)) {
      parts.push(h('p', { class: 'muted' }, Object.entries(METRICS).filter(([k]) => k !== 'none' && node.cost[k] > 0)
        .map(([k, m]) => `${m.label} ${m.format(node.cost[k])}`).join(' · ')));
    }
    if (mapping) {
      if (mapping.mappedCode) {
        parts.push(h('p', {}, h('code', { id: 'location' }, `${mapping.mappedCode.file}:${mapping.mappedCode.lines}`),
          mapping.mappedCode.symbol ? h('span', { class: 'muted' }, ' in ', mapping.mappedCode.symbol) : ''));
      }
      const f = mapping.confidenceFactors || {};
      parts.push(h('div', { class: 'factors' }, [['embedding', f.embeddingScore], ['code shape', f.astScore], ['reasoner', f.llmConfidence], ['keywords', f.keywordMatch]]
        .map(([name, v]) => [h('span', {}, name), h('div', { class: 'bar' }, h('span', { style: `width:${Math.round((v || 0) * 100)}%` })), h('span', { class: 'num' }, (v || 0).toFixed(2))])));
      parts.push(h('p', { id: 'explanation' }, mapping.explanation));
      if (mapping.alternatives && mapping.alternatives.length) {
        parts.push(h('h2', {}, 'Alternatives'), h('ol', { class: 'alternatives' }, mapping.alternatives.map((alt, i) => h('li', {},
          h('code', {}, `${alt.file}:${alt.lines}`), ` (${alt.confidence.toFixed(2)}) `,
          h('button', { class: 'show-alternative', 'data-index': i, onclick: () => showCode(model, alt, code, 'alt') }, 'show'),
          h('div', { class: 'muted' }, alt.reason)))));
      }
    } else {
      parts.push(h('p', { class: 'muted' }, 'Not mapped yet.'));
    }
    parts.push(code);
    panel.replaceChildren(...parts);
    if (mapping && mapping.mappedCode) await showCode(model, mapping.mappedCode, code, 'hit');
  }

  // The location's file with its lines marked (`hit` for the mapping, `alt` for an
  // alternative) and CONTEXT_LINES around them; the snippet alone when the file is not at hand.
  // The box shows the latest request: an earlier one whose file arrives later is dropped (a
  // node's own code must not replace the alternative the reader clicked meanwhile).
  let codeRequests = 0;
  async function showCode(model, location, box, mark) {
    const request = String(++codeRequests);
    box.dataset.request = request;
    const { start, end } = lineRange(location.lines);
    const lines = await model.sourceOf(location.file);
    if (box.dataset.request !== request) return;
    const rows = [];
    if (lines) {
      const first = Math.max(1, start - CONTEXT_LINES);
      const last = Math.min(lines.length, end + CONTEXT_LINES);
      for (let n = first; n <= last; n++) {
        const code = document.createElement('code');
        code.innerHTML = lines[n - 1]; // highlighted and escaped by the server
        rows.push(h('div', { class: 'line' + (n >= start && n <= end ? ' ' + mark : ''), 'data-line': n }, h('span', { class: 'ln' }, n), code));
      }
    } else {
      location.codeSnippet.split('\n').forEach((text, i) => rows.push(h('div', { class: 'line ' + mark, 'data-line': start + i }, h('span', { class: 'ln' }, start + i), h('code', {}, text))));
    }
    box.replaceChildren(h('div', { class: 'source' }, h('div', { class: 'file' }, `${location.file}:${location.lines}`), rows));
    const hit = box.querySelector('.line.' + mark);
    if (hit && hit.scrollIntoView) hit.parentElement.scrollTop = Math.max(0, hit.offsetTop - 60);
  }

  function hotLines(model, onSelect) {
    const hot = model.overview.hotLines || [];
    if (!hot.length) {
      const measured = model.overview.graphs.some((g) => g.hasMetrics);
      return h('p', { class: 'muted' }, measured ? 'No mapped node carries a measured cost yet.' : 'Hot lines need a plan with metrics (the Spark UI\'s SQL JSON).');
    }
    return h('div', {}, h('h2', {}, 'Hot lines'), h('div', { class: 'card' }, h('table', { class: 'hot' },
      h('thead', {}, h('tr', {}, ['#', 'Code', '', 'Time', 'Rows', 'Shuffle', 'Spill', 'Nodes'].map((t) => h('th', {}, t)))),
      h('tbody', {}, hot.slice(0, 50).map((line, i) => h('tr', { 'data-key': line.nodes[0].key, onclick: () => onSelect(line.nodes[0].key) },
        h('td', { class: 'num' }, i + 1),
        h('td', {}, h('code', {}, `${line.file}:${line.lines}`)),
        h('td', {}, h('code', {}, line.code.slice(0, 70))),
        h('td', { class: 'num' }, formatMs(line.cost.timeMs)),
        h('td', { class: 'num' }, formatCount(line.cost.rows)),
        h('td', { class: 'num' }, formatBytes(line.cost.shuffleBytes)),
        h('td', { class: 'num' }, formatBytes(line.cost.spillBytes)),
        h('td', {}, line.nodes.map((n) => h('a', { href: '#', onclick: (e) => { e.preventDefault(); e.stopPropagation(); onSelect(n.key); } }, n.name)).reduce((acc, el) => acc.concat(acc.length ? [', ', el] : [el]), []))))))));
  }

  captureToken();
  window.addEventListener('popstate', route);
  route();
})();
