// The script of Canton Lens panels. Loaded by nonce under a strict CSP; builds every ledger
// string as a text node (the one exception: an event's details, rendered and escaped by the
// extension like the page itself) and talks to the extension with typed messages.
(function () {
  'use strict';
  const vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : { postMessage() {}, getState() {}, setState() {} };
  const post = (message) => vscode.postMessage(message);
  // Localized by the extension (pageStrings); English when absent.
  const strings = JSON.parse((document.getElementById('page-strings') || { getAttribute: () => null }).getAttribute('data-strings') || '{}');
  const say = (key, english, ...args) => (strings[key] || english).replace(/\{(\d+)\}/g, (m, i) => (i < args.length ? String(args[i]) : m));

  // The extension's navigation state, kept by the webview so the panel comes back after a reload,
  // with what the person did on the page (filters, search, folded nodes, opened rows, scroll):
  // a refresh of the same view keeps it.
  const stateHolder = document.getElementById('panel-state');
  const navigation = stateHolder ? JSON.parse(stateHolder.getAttribute('data-state') || 'null') : null;
  const shownTarget = navigation && navigation.history ? navigation.history[navigation.index] : null;
  const view = shownTarget ? [shownTarget.kind, shownTarget.id, shownTarget.node, shownTarget.shape || ''].join('|') : '';
  const previous = vscode.getState() || {};
  const ui = previous.view === view && previous.ui ? previous.ui : {};
  const saveUi = () => { if (navigation) vscode.setState(Object.assign({}, navigation, { view, ui })); };
  saveUi();
  let scrollTimer;
  window.addEventListener('scroll', () => { clearTimeout(scrollTimer); scrollTimer = setTimeout(() => { ui.scrollY = window.scrollY; saveUi(); }, 200); });
  /** Opened rows, as [source, index], to open again after a refresh. */
  const openedDetails = () => (Array.isArray(ui.details) ? ui.details : []);
  const rememberDetail = (source, index, open) => {
    const rest = openedDetails().filter(([s, i]) => !(s === source && i === index));
    ui.details = open ? rest.concat([[source, index]]) : rest;
    saveUi();
  };
  /** After a refresh: open the rows that were open, then scroll back (rendering more rows where needed). */
  function restoreView(more) {
    for (const [source, index] of openedDetails()) {
      const button = document.querySelector(`[data-detail="${source === 'tree' ? 'tree' : 'events'}"][data-index="${Number(index)}"]`);
      if (button) toggleDetail(button);
    }
    if (typeof ui.scrollY === 'number' && ui.scrollY > 0) {
      for (let i = 0; i < 400 && document.documentElement.scrollHeight < ui.scrollY + window.innerHeight && more(); i++);
      window.scrollTo(0, ui.scrollY);
    }
  }

  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const link = target.closest('[data-open-id]');
    if (link) {
      event.preventDefault();
      post({ type: 'openId', id: link.getAttribute('data-open-id'), kind: link.getAttribute('data-kind'), node: link.getAttribute('data-node') || undefined });
      return;
    }
    // A template, interface or choice name: its definition in the workspace's Daml source (issue 13).
    const damlName = target.closest('[data-daml-template]');
    if (damlName) {
      event.preventDefault();
      post({ type: 'openDaml', templateId: damlName.getAttribute('data-daml-template'), choice: damlName.getAttribute('data-daml-choice') || undefined, packageName: damlName.getAttribute('data-daml-package') || undefined });
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
    const offsetLink = target.closest('[data-open-offset]');
    if (offsetLink) {
      event.preventDefault();
      post({ type: 'openOffset', offset: Number(offsetLink.getAttribute('data-open-offset')), nodeId: Number(offsetLink.getAttribute('data-node-id')), shape: offsetLink.getAttribute('data-shape') || undefined });
      return;
    }
    const detail = target.closest('[data-detail]');
    if (detail) {
      toggleDetail(detail);
      return;
    }
    const action = target.closest('[data-action]');
    if (!action || action.disabled) return;
    const name = action.getAttribute('data-action');
    if (name === 'expandAll' || name === 'collapseAll') {
      for (const d of document.querySelectorAll('.value-tree details')) d.open = name === 'expandAll';
      return;
    }
    post(action.hasAttribute('data-shape') ? { type: name, shape: action.getAttribute('data-shape') } : { type: name });
  });

  // A row's whole event, built by the extension when the row is opened (ledger data escaped there,
  // by the same renderer as the rest of the page); shown in a row under it.
  function toggleDetail(button) {
    const row = button.closest('tr');
    const next = row.nextElementSibling;
    const source = button.getAttribute('data-detail');
    const index = Number(button.getAttribute('data-index'));
    if (next && next.classList.contains('detail-row')) {
      next.hidden = !next.hidden;
      button.setAttribute('aria-expanded', String(!next.hidden));
      rememberDetail(source, index, !next.hidden);
      return;
    }
    rememberDetail(source, index, true);
    button.setAttribute('aria-expanded', 'true');
    button.disabled = true;
    post({ type: 'eventDetail', source: button.getAttribute('data-detail'), index: Number(button.getAttribute('data-index')) });
  }

  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!m || m.type !== 'eventDetail' || typeof m.html !== 'string') return;
    const button = document.querySelector(`[data-detail="${m.source === 'tree' ? 'tree' : 'events'}"][data-index="${Number(m.index)}"]`);
    if (!button) return;
    button.disabled = false;
    const row = button.closest('tr');
    const tr = document.createElement('tr');
    tr.className = 'detail-row';
    const td = document.createElement('td');
    td.colSpan = row.children.length;
    // Rendered and escaped by the extension's HTML renderer, like the page itself: no ledger string is markup.
    td.insertAdjacentHTML('beforeend', m.html);
    tr.appendChild(td);
    row.after(tr);
  });

  /** A name that opens its Daml definition; the text stays a text node. */
  function damlLink(text, templateId, choice) {
    const a = document.createElement('a');
    a.href = '#';
    a.className = 'daml-link';
    a.dataset.damlTemplate = templateId;
    if (choice) a.dataset.damlChoice = choice;
    a.title = choice ? say('openDamlChoice', '{0}: open the Daml definition of choice {1}', templateId, choice) : say('openDaml', '{0}: open its Daml definition', templateId);
    a.textContent = text;
    return a;
  }

  function detailButton(source, index) {
    const b = document.createElement('button');
    b.className = 'icon detail-toggle';
    b.dataset.detail = source;
    b.dataset.index = String(index);
    b.setAttribute('aria-expanded', 'false');
    b.title = say('showEvent', 'Show the whole event');
    b.setAttribute('aria-label', say('showEvent', 'Show the whole event'));
    b.textContent = '⋯';
    return b;
  }

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
    rows.forEach((r, i) => r.push(i));
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
        const [nodeId, k, templateId, contractId, detail, parties, index] = shown[rendered];
        const tr = document.createElement('tr');
        tr.className = `ev-${k}`;
        tr.dataset.nodeId = String(nodeId);
        const first = cell(tr, String(nodeId));
        first.prepend(detailButton('events', index));
        cell(tr, say(k, k));
        cell(tr, '', templateId).appendChild(damlLink(templateName(templateId), templateId));
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
    const filters = ui.filters || {};
    kind.value = filters.kind || '';
    template.value = filters.template || '';
    party.value = filters.party || '';
    for (const input of [kind, template, party]) input.addEventListener('input', () => {
      ui.filters = { kind: kind.value, template: template.value, party: party.value };
      saveUi();
      clearTimeout(timer);
      timer = setTimeout(applyFilters, 120);
    });
    new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting) && rendered < shown.length) renderMore(); }, { rootMargin: '600px' }).observe(sentinel);
    applyFilters();
    const more = () => { if (rendered < shown.length) { renderMore(); return true; } return false; };
    highlightRow(tbody, more);
    restoreView(more);
  }

  // A lineage link opened this panel at one event: render up to it, mark it, bring it into view.
  function highlightRow(tbody, more) {
    const wanted = tbody.getAttribute('data-highlight');
    if (wanted === null) return;
    let row = tbody.querySelector(`tr[data-node-id="${Number(wanted)}"]`);
    while (!row && more()) row = tbody.querySelector(`tr[data-node-id="${Number(wanted)}"]`);
    if (!row) return;
    row.classList.add('highlight');
    row.scrollIntoView({ block: 'center' });
  }

  // The exercise tree of ledger effects: rows in node order, indented by depth; an exercise's
  // nodes fold under it. Rendered page by page, like the events.
  const treeData = document.getElementById('tree-data');
  if (treeData) {
    const nodes = JSON.parse(treeData.textContent || '[]');
    const tbody = document.getElementById('tree-rows');
    const sentinel = document.getElementById('rows-sentinel');
    const search = document.getElementById('tree-search');
    const status = document.getElementById('filter-status');
    const collapsed = new Set(Array.isArray(ui.collapsed) ? ui.collapsed.filter((i) => Number.isInteger(i)) : []);
    if (typeof ui.treeSearch === 'string') search.value = ui.treeSearch;
    const saveTree = () => { ui.collapsed = [...collapsed]; ui.treeSearch = search.value; saveUi(); };
    const PAGE = 500;
    let visible = [];
    let rendered = 0;
    const shortParty = (p) => { const i = p.lastIndexOf('::'); return i < 0 || p.length - i < 10 ? p : `${p.slice(0, i)}::${p.slice(i + 2, i + 8)}…`; };
    const shortId = (id) => (id.length > 20 ? `${id.slice(0, 10)}…${id.slice(-6)}` : id);
    const templateName = (id) => { const parts = id.split(':'); return parts.length >= 3 ? parts.slice(1).join(':') : id; };
    const text = (n) => `${n[6]} ${templateName(n[5])} ${n[7]} ${n[8].join(' ')} ${n[10]}`.toLowerCase();

    const compute = () => {
      const q = search.value.trim().toLowerCase();
      if (q) {
        // Matches and their ancestors, whatever is folded.
        const keep = new Set();
        for (const n of nodes) if (text(n).includes(q)) for (let i = n[0]; i >= 0 && !keep.has(i); i = nodes[i][1]) keep.add(i);
        visible = nodes.filter((n) => keep.has(n[0]));
        status.textContent = say('nodesMatch', '{0} of {1} nodes match', nodes.filter((n) => text(n).includes(q)).length.toLocaleString('en-US'), nodes.length.toLocaleString('en-US'));
        return;
      }
      visible = [];
      for (let i = 0; i < nodes.length; i++) {
        visible.push(nodes[i]);
        if (collapsed.has(i)) i += nodes[i][3];
      }
      status.textContent = '';
    };
    const renderMore = () => {
      const fragment = document.createDocumentFragment();
      const end = Math.min(visible.length, rendered + PAGE);
      for (; rendered < end; rendered++) {
        const [index, , depth, descendants, k, templateId, choice, contractId, parties, consuming, interfaceId, nodeId] = visible[rendered];
        const tr = document.createElement('tr');
        tr.className = `ev-${k}${consuming && k === 'exercised' ? ' consuming' : ''}`;
        tr.setAttribute('role', 'row');
        tr.setAttribute('aria-level', String(depth + 1));
        tr.dataset.index = String(index);
        tr.dataset.nodeId = String(nodeId);
        const first = document.createElement('td');
        first.appendChild(detailButton('tree', index));
        first.appendChild(document.createTextNode(String(nodeId)));
        tr.appendChild(first);
        const what = document.createElement('td');
        what.style.paddingLeft = `${depth * 16}px`;
        if (descendants > 0) {
          const twisty = document.createElement('button');
          twisty.className = 'icon twisty';
          twisty.dataset.twisty = String(index);
          twisty.setAttribute('aria-expanded', String(!collapsed.has(index)));
          twisty.setAttribute('aria-label', collapsed.has(index) ? say('expandNode', 'Expand') : say('collapseNode', 'Collapse'));
          twisty.textContent = collapsed.has(index) ? '▸' : '▾';
          what.appendChild(twisty);
        }
        const label = document.createElement('span');
        if (k === 'exercised') {
          label.appendChild(damlLink(choice, interfaceId || templateId, choice));
          label.appendChild(document.createTextNode(`${interfaceId ? ` (${say('viaInterface', 'via {0}', templateName(interfaceId))})` : ''}${consuming ? ` · ${say('consuming', 'consuming')}` : ''}`));
        } else label.textContent = say(k, k);
        what.appendChild(label);
        tr.appendChild(what);
        cell(tr, '', templateId).appendChild(damlLink(templateName(templateId), templateId));
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
        cell(tr, parties.map(shortParty).join(', '), parties.join('\n'));
        fragment.appendChild(tr);
      }
      tbody.appendChild(fragment);
    };
    const cell = (tr, value, title) => { const td = document.createElement('td'); td.textContent = value; if (title) td.title = title; tr.appendChild(td); return td; };
    const refresh = () => { compute(); tbody.textContent = ''; rendered = 0; renderMore(); };
    tbody.addEventListener('click', (event) => {
      const twisty = event.target instanceof Element ? event.target.closest('[data-twisty]') : null;
      if (!twisty) return;
      const i = Number(twisty.dataset.twisty);
      if (collapsed.has(i)) collapsed.delete(i); else collapsed.add(i);
      saveTree();
      refresh();
      const again = tbody.querySelector(`[data-twisty="${i}"]`);
      if (again) again.focus();
    });
    for (const b of document.querySelectorAll('[data-tree]')) {
      b.addEventListener('click', () => {
        collapsed.clear();
        if (b.getAttribute('data-tree') === 'collapseAll') for (const n of nodes) if (n[3] > 0) collapsed.add(n[0]);
        saveTree();
        refresh();
      });
    }
    let timer;
    search.addEventListener('input', () => { saveTree(); clearTimeout(timer); timer = setTimeout(refresh, 150); });
    new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting) && rendered < visible.length) renderMore(); }, { rootMargin: '600px' }).observe(sentinel);
    refresh();
    // A lineage link: unfold the highlighted node's ancestors, then bring it into view.
    const wanted = Number(tbody.getAttribute('data-highlight'));
    const target = tbody.hasAttribute('data-highlight') ? nodes.find((n) => n[11] === wanted) : undefined;
    if (target) {
      for (let i = target[1]; i >= 0; i = nodes[i][1]) collapsed.delete(i);
      refresh();
      highlightRow(tbody, () => { if (rendered < visible.length) { renderMore(); return true; } return false; });
    }
    restoreView(() => { if (rendered < visible.length) { renderMore(); return true; } return false; });
  }

  post({ type: 'ready' });
})();
