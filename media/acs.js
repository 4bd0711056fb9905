// The Active Contracts page: rows arrive page by page from the extension; search and sort run
// here over all of them; a row opens its contract panel. Ledger strings only become text nodes.
(function () {
  'use strict';
  const vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : { postMessage() {}, getState() {}, setState() {} };
  const post = (m) => vscode.postMessage(m);
  const strings = JSON.parse(document.getElementById('page-strings').getAttribute('data-strings') || '{}');
  const say = (key, english, ...args) => (strings[key] || english).replace(/\{(\d+)\}/g, (m, i) => (i < args.length ? String(args[i]) : m));
  const num = (n) => Number(n).toLocaleString('en-US');
  const shortParty = (p) => {
    const i = p.lastIndexOf('::');
    return i < 0 || p.length - i < 10 ? p : `${p.slice(0, i)}::${p.slice(i + 2, i + 8)}…`;
  };
  const shortId = (id) => (id.length > 20 ? `${id.slice(0, 10)}…${id.slice(-6)}` : id);
  const templateName = (id) => {
    const a = id.indexOf(':');
    const b = id.lastIndexOf(':');
    return a < 0 || a === b ? id : id.slice(a + 1);
  };
  const when = (iso) => {
    const t = Date.parse(iso);
    return Number.isNaN(t) ? iso : new Date(t).toLocaleString();
  };

  // [contractId, templateId, packageName, createdAt, signatories, observers, key, fields, search]
  const rows = [];
  let view = rows;
  let query = '';
  let sort = '';
  let activeAt;
  let loading = true;
  let sameTemplate = true;

  const table = window.CantonVirtualTable(document.getElementById('table'), {
    cells: (r) => {
      const out = [
        [shortId(r[0]), say('openContract', 'Open contract {0}', r[0]), 'id-link'],
        [templateName(r[1]), `${say('openDaml', '{0}: open its Daml definition', r[1])}\n${r[2]}`, 'daml-link'],
        [when(r[3]), r[3]],
        [r[4].map(shortParty).join(', '), r[4].join('\n')],
        [r[5].map(shortParty).join(', '), r[5].join('\n')],
        [r[6], r[6]],
      ];
      for (let i = 0; i < 3; i++) {
        const f = r[7][i];
        out.push(f ? [sameTemplate ? f[1] : `${f[0]}: ${f[1]}`, `${f[0]}: ${f[1]}`] : ['', '']);
      }
      return out;
    },
    // The template cell opens its Daml definition; the rest of the row, the contract.
    onOpen: (r, column) => post(column === 1 ? { type: 'openDaml', templateId: r[1], packageName: r[2] || undefined } : { type: 'openContract', id: r[0] }),
  });

  const status = document.getElementById('status');
  const notice = document.getElementById('notice');
  const matches = (r) =>
    !query ||
    r[8].includes(query) ||
    r[0].includes(query) ||
    r[4].some((p) => p.toLowerCase().includes(query)) ||
    r[5].some((p) => p.toLowerCase().includes(query));
  const sorter = (a, b) => (a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0) * (sort === 'desc' ? -1 : 1);

  const rebuild = () => {
    view = query ? rows.filter(matches) : sort ? rows.slice() : rows;
    if (sort) view.sort(sorter);
    table.setRows(view);
    updateHeaders();
    showStatus();
  };
  const updateHeaders = () => {
    const first = view[0];
    sameTemplate = Boolean(first) && view.length < 50_000 ? view.every((r) => r[1] === first[1]) : false;
    const names = [0, 1, 2].map((i) => (sameTemplate && first && first[7][i] ? first[7][i][0] : say('field', 'Field {0}', i + 1)));
    table.setHeaders([null, null, null, null, null, null, ...names]);
  };
  const showStatus = () => {
    status.textContent = '';
    if (loading) {
      const s = document.createElement('span');
      s.className = 'spinner';
      s.setAttribute('aria-hidden', 'true');
      status.appendChild(s);
      status.appendChild(document.createTextNode(' '));
    }
    const count =
      view.length === rows.length
        ? say('contracts', '{0} contracts', num(rows.length))
        : say('matching', '{0} of {1} contracts match', num(view.length), num(rows.length));
    const parts = [count];
    if (activeAt !== undefined) parts.push(say('activeAt', 'active at offset {0}', num(activeAt)));
    if (loading) parts.push(say('loading', 'Loading… {0} contracts so far', num(rows.length)));
    status.appendChild(document.createTextNode(parts.join(' · ')));
    document.getElementById('cancel').disabled = !loading;
  };

  let searchTimer;
  document.getElementById('search').addEventListener('input', (e) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      query = e.target.value.trim().toLowerCase();
      rebuild();
    }, 150);
  });
  document.getElementById('sort').addEventListener('change', (e) => {
    sort = e.target.value;
    rebuild();
  });
  document.addEventListener('click', (event) => {
    const a = event.target instanceof Element ? event.target.closest('[data-action]') : null;
    if (a && !a.disabled) post({ type: a.getAttribute('data-action') });
  });
  // Archived or all contracts in a range open What Changed for this table's scope; the table stays active.
  const history = document.getElementById('history');
  if (history)
    history.addEventListener('change', () => {
      if (history.value) post({ type: history.value });
      history.value = '';
    });

  let resortTimer;
  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!m || typeof m.type !== 'string') return;
    if (m.type === 'scope') {
      document.getElementById('scope').textContent = String(m.text);
    } else if (m.type === 'reset') {
      rows.length = 0;
      loading = true;
      activeAt = undefined;
      rebuild();
    } else if (m.type === 'rows') {
      if (m.restarted) rows.length = 0;
      if (typeof m.activeAtOffset === 'number') activeAt = m.activeAtOffset;
      const fresh = Array.isArray(m.rows) ? m.rows : [];
      for (const r of fresh) rows.push(r);
      if (m.restarted) rebuild();
      else if (!query && !sort) {
        view = rows;
        table.grew();
        showStatus();
        if (rows.length === fresh.length) {
          table.setRows(rows);
          updateHeaders();
        }
      } else if (!sort) {
        for (const r of fresh) if (matches(r)) view.push(r);
        table.grew();
        showStatus();
      } else {
        clearTimeout(resortTimer);
        resortTimer = setTimeout(rebuild, 300);
      }
    } else if (m.type === 'notice') {
      notice.hidden = !m.text;
      notice.textContent = m.text || '';
    } else if (m.type === 'done') {
      loading = false;
      if (m.cancelled) {
        notice.hidden = false;
        notice.textContent = say('cancelled', 'Stopped: the table shows what had arrived.');
      }
      rebuild();
    } else if (m.type === 'error') {
      loading = false;
      showStatus();
      notice.hidden = false;
      notice.className = 'notice error';
      notice.textContent = m.text;
      for (const action of m.actions || []) {
        const b = document.createElement('button');
        b.textContent = action.label;
        b.setAttribute('data-action', action.action);
        notice.appendChild(document.createTextNode(' '));
        notice.appendChild(b);
      }
    }
  });
  showStatus();
  post({ type: 'ready' });
})();
