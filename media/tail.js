// The Follow Updates page: updates arrive from the extension as they commit, newest on top, in a
// bounded buffer (older rows are dropped and counted); filters by party and template or choice;
// pause, resume, restart at an offset; a row opens its transaction. Text nodes only.
(function () {
  'use strict';
  const vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : { postMessage() {}, getState() {}, setState() {} };
  const post = (m) => vscode.postMessage(m);
  const strings = JSON.parse(document.getElementById('page-strings').getAttribute('data-strings') || '{}');
  const say = (key, english, ...args) => (strings[key] || english).replace(/\{(\d+)\}/g, (m, i) => (i < args.length ? String(args[i]) : m));
  const num = (n) => Number(n).toLocaleString('en-US');
  const shortId = (id) => (id.length > 20 ? `${id.slice(0, 10)}…${id.slice(-6)}` : id);
  const when = (iso) => {
    const t = Date.parse(iso);
    return Number.isNaN(t) ? iso : new Date(t).toLocaleTimeString(undefined, { hour12: false }) + `.${String(t % 1000).padStart(3, '0')}`;
  };
  const CAPACITY = Number(document.body.getAttribute('data-capacity')) || 20000;

  let rows = [];
  let view = rows;
  let dropped = 0;
  let received = 0;
  let party = '';
  let template = '';
  let position;
  let state = 'starting';
  let paused = false;

  const table = window.CantonVirtualTable(document.getElementById('table'), {
    reversed: true,
    cells: (r) => [
      [num(r.offset), String(r.offset)],
      [when(r.recordTime), r.recordTime],
      [shortId(r.updateId), say('openUpdate', 'Open transaction {0}', r.updateId), 'id-link'],
      [r.commandId, r.commandId],
      [r.workflowId, r.workflowId],
      [`${r.kinds.join(', ')} (${r.events})`, r.parties.join('\n'), r.kinds.length === 1 && r.kinds[0] === 'archived' ? 'kind-archived' : ''],
      [r.templates.join(', '), r.templates.join('\n')],
      [r.choices.join(', '), r.choices.join('\n')],
    ],
    onOpen: (r) => post({ type: 'openUpdate', id: r.updateId }),
    // Right-click on a row: Debug Transaction (its update, on this page's node).
    rowContext: (r) =>
      JSON.stringify({
        webviewSection: 'updateRow',
        updateId: r.updateId,
        node: document.getElementById('table').dataset.node,
        preventDefaultContextMenuItems: true,
      }),
  });

  const statusEl = document.getElementById('status');
  const countsEl = document.getElementById('counts');
  const notice = document.getElementById('notice');
  const offer = document.getElementById('offer');
  const pauseButton = document.getElementById('pause');
  const matches = (r) =>
    (!party || r.parties.some((p) => p.toLowerCase().includes(party))) &&
    (!template || r.templates.some((t) => t.toLowerCase().includes(template)) || r.choices.some((c) => c.toLowerCase().includes(template)));

  const showCounts = () => {
    const parts = [
      view === rows ? say('shown', '{0} updates shown', num(rows.length)) : say('matching', '{0} of {1} match', num(view.length), num(rows.length)),
    ];
    if (dropped > 0) parts.push(say('dropped', '{0} older dropped', num(dropped)));
    countsEl.textContent = parts.join(' · ');
  };
  const refilter = () => {
    view = party || template ? rows.filter(matches) : rows;
    table.setRows(view);
    showCounts();
  };
  let timer;
  for (const [id, set] of [
    ['filter-party', (v) => (party = v)],
    ['filter-template', (v) => (template = v)],
  ]) {
    document.getElementById(id).addEventListener('input', (e) => {
      clearTimeout(timer);
      set(e.target.value.trim().toLowerCase());
      timer = setTimeout(refilter, 120);
    });
  }
  document.addEventListener('click', (event) => {
    const a = event.target instanceof Element ? event.target.closest('[data-action]') : null;
    if (!a || a.disabled) return;
    const action = a.getAttribute('data-action');
    if (action === 'pause') post({ type: paused ? 'resume' : 'pause' });
    else if (action === 'restart') post({ type: 'restart', start: document.getElementById('start').value.trim() });
    else if (action === 'startAt') post({ type: 'restart', start: a.getAttribute('data-offset') || '' });
    else post({ type: action });
  });

  const showState = (m) => {
    state = m.state;
    paused = m.state === 'paused';
    pauseButton.textContent = paused ? say('resume', 'Resume') : say('pause', 'Pause');
    pauseButton.disabled = m.state === 'stopped' && !m.canResume;
    const at = position === undefined ? '…' : num(position);
    statusEl.textContent =
      m.state === 'following'
        ? say('following', 'Following from offset {0}', at)
        : m.state === 'paused'
          ? say('paused', 'Paused at offset {0}', at)
          : m.state === 'reconnecting'
            ? say('reconnecting', 'Reconnecting (attempt {0}): {1}', m.attempt, m.error)
            : say('stopped', 'Stopped at offset {0}', at);
    notice.hidden = !m.message;
    notice.className = m.state === 'stopped' && m.message ? 'notice error' : 'notice';
    notice.textContent = m.message || '';
    offer.textContent = '';
    offer.hidden = !(m.offers && m.offers.length);
    for (const o of m.offers || []) {
      const b = document.createElement('button');
      b.setAttribute('data-action', o.action);
      if (o.offset !== undefined) b.setAttribute('data-offset', String(o.offset));
      b.textContent = o.label;
      offer.appendChild(b);
      offer.appendChild(document.createTextNode(' '));
    }
  };

  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!m || typeof m.type !== 'string') return;
    if (m.type === 'scope') {
      document.getElementById('scope').textContent = String(m.text);
    } else if (m.type === 'reset') {
      rows = [];
      view = rows;
      dropped = 0;
      received = 0;
      position = m.position;
      table.setRows(view);
      showCounts();
    } else if (m.type === 'rows') {
      position = m.position;
      const fresh = Array.isArray(m.rows) ? m.rows : [];
      received += fresh.length;
      for (const r of fresh) rows.push(r);
      const filtered = view !== rows;
      if (filtered) for (const r of fresh) if (matches(r)) view.push(r);
      if (rows.length > CAPACITY * 1.1) {
        const over = rows.length - CAPACITY;
        rows.splice(0, over);
        dropped += over;
        if (filtered) view = rows.filter(matches);
        else view = rows;
        table.setRows(view);
      } else table.grew();
      showCounts();
      if (state === 'following') statusEl.textContent = say('following', 'Following from offset {0}', num(position));
    } else if (m.type === 'state') {
      if (m.position !== undefined) position = m.position;
      showState(m);
    }
  });
  // For the bench and UI tests: what the page holds (offsets of the kept rows, oldest first).
  window.cantonTail = {
    get received() {
      return received;
    },
    get dropped() {
      return dropped;
    },
    get shown() {
      return rows.length;
    },
    offsets: () => rows.map((r) => r.offset),
  };
  post({ type: 'ready' });
})();
