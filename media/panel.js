// The script of Canton Lens panels. Loaded by nonce under a strict CSP; builds every ledger
// string as a text node (never innerHTML) and talks to the extension with typed messages.
(function () {
  'use strict';
  const vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : { postMessage() {}, getState() {}, setState() {} };
  const post = (message) => vscode.postMessage(message);
  // Localized by the extension (pageStrings); English when absent.
  const strings = JSON.parse((document.getElementById('page-strings') || { getAttribute: () => null }).getAttribute('data-strings') || '{}');
  const say = (key, english, ...args) => (strings[key] || english).replace(/\{(\d+)\}/g, (m, i) => (i < args.length ? String(args[i]) : m));

  // The extension's navigation state, kept by the webview so the panel comes back after a reload.
  const stateHolder = document.getElementById('panel-state');
  if (stateHolder) vscode.setState(JSON.parse(stateHolder.getAttribute('data-state') || 'null'));

  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const link = target.closest('[data-open-id]');
    if (link) {
      event.preventDefault();
      post({ type: 'openId', id: link.getAttribute('data-open-id'), kind: link.getAttribute('data-kind'), node: link.getAttribute('data-node') || undefined });
      return;
    }
    const copy = target.closest('[data-copy]');
    if (copy) {
      post({ type: 'copy', text: copy.getAttribute('data-copy') });
      return;
    }
    if (target.closest('[data-copy-json]')) {
      post({ type: 'copyArgument' });
      return;
    }
    const action = target.closest('[data-action]');
    if (!action || action.disabled) return;
    const name = action.getAttribute('data-action');
    if (name === 'expandAll' || name === 'collapseAll') {
      for (const d of document.querySelectorAll('.value-tree details')) d.open = name === 'expandAll';
      return;
    }
    post({ type: name });
  });

  // Search in a value tree: mark matching entries and open their ancestors.
  for (const input of document.querySelectorAll('.tree-search')) {
    let timer;
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => searchTree(input.value.trim().toLowerCase()), 150);
    });
  }

  function searchTree(query) {
    let hits = 0;
    for (const li of document.querySelectorAll('.value-tree li')) {
      // The entry's own key and value, not its nested children.
      const text = Array.from(li.children).filter((c) => !c.matches('details')).map((c) => c.textContent + ' ' + (c.getAttribute('title') || '')).join(' ').toLowerCase();
      const hit = query !== '' && text.includes(query);
      li.classList.toggle('match', hit);
      if (!hit) continue;
      hits++;
      for (let d = li.closest('details'); d; d = d.parentElement ? d.parentElement.closest('details') : null) d.open = true;
    }
    const first = document.querySelector('.value-tree li.match');
    if (first) first.scrollIntoView({ block: 'nearest' });
    const tools = document.querySelector('.tree-tools');
    let status = tools.querySelector('.search-status');
    if (!status) {
      status = document.createElement('span');
      status.className = 'search-status muted';
      status.setAttribute('aria-live', 'polite');
      tools.appendChild(status);
    }
    status.textContent = !query ? '' : hits === 1 ? say('oneMatch', '1 match') : say('matches', '{0} matches', hits);
  }

  // The events of a transaction: rendered page by page from the JSON data, filtered in place.
  const data = document.getElementById('event-data');
  if (data) {
    const rows = JSON.parse(data.textContent || '[]');
    const tbody = document.getElementById('event-rows');
    const sentinel = document.getElementById('rows-sentinel');
    const kind = document.getElementById('filter-kind');
    const template = document.getElementById('filter-template');
    const party = document.getElementById('filter-party');
    const status = document.getElementById('filter-status');
    const PAGE = 500;
    let shown = [];
    let rendered = 0;

    const shortParty = (p) => {
      const i = p.lastIndexOf('::');
      return i < 0 || p.length - i < 10 ? p : `${p.slice(0, i)}::${p.slice(i + 2, i + 8)}…`;
    };
    const shortId = (id) => (id.length > 20 ? `${id.slice(0, 10)}…${id.slice(-6)}` : id);
    const templateName = (id) => { const parts = id.split(':'); return parts.length >= 3 ? parts.slice(1).join(':') : id; };
    const cell = (tr, text, title) => {
      const td = document.createElement('td');
      td.textContent = text;
      if (title) td.title = title;
      tr.appendChild(td);
      return td;
    };

    const renderMore = () => {
      const fragment = document.createDocumentFragment();
      const end = Math.min(shown.length, rendered + PAGE);
      for (; rendered < end; rendered++) {
        const [nodeId, k, templateId, contractId, detail, parties] = shown[rendered];
        const tr = document.createElement('tr');
        tr.className = `ev-${k}`;
        cell(tr, String(nodeId));
        cell(tr, say(k, k));
        cell(tr, templateName(templateId), templateId);
        const td = document.createElement('td');
        const a = document.createElement('a');
        a.href = '#';
        a.className = 'id-link';
        a.dataset.openId = contractId;
        a.dataset.kind = 'contract';
        a.title = say('openContract', 'Open contract {0}', contractId);
        const code = document.createElement('code');
        code.textContent = shortId(contractId);
        a.appendChild(code);
        td.appendChild(a);
        tr.appendChild(td);
        cell(tr, detail);
        cell(tr, parties.map(shortParty).join(', '), parties.join('\n'));
        fragment.appendChild(tr);
      }
      tbody.appendChild(fragment);
    };

    const applyFilters = () => {
      const k = kind.value;
      const t = template.value.trim().toLowerCase();
      const p = party.value.trim().toLowerCase();
      shown = rows.filter((r) => (!k || r[1] === k) && (!t || r[2].toLowerCase().includes(t)) && (!p || r[5].some((x) => x.toLowerCase().includes(p))));
      tbody.textContent = '';
      rendered = 0;
      renderMore();
      status.textContent = shown.length === rows.length ? '' : say('eventsMatch', '{0} of {1} events match', shown.length.toLocaleString('en-US'), rows.length.toLocaleString('en-US'));
    };

    let timer;
    for (const input of [kind, template, party]) input.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(applyFilters, 120); });
    new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting) && rendered < shown.length) renderMore(); }, { rootMargin: '600px' }).observe(sentinel);
    applyFilters();
  }

  post({ type: 'ready' });
})();
