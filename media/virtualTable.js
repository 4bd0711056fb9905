// A virtual table for Canton Lens pages: only the rows in view exist in the DOM (a pool of <tr>
// reused while scrolling), so 100,000 rows scroll without long tasks. Every cell is a text node.
// Used by acs.js and tail.js: window.CantonVirtualTable(container, { cells, onOpen }).
(function () {
  'use strict';
  const ROW_HEIGHT = 22;
  const OVERSCAN = 10;

  window.CantonVirtualTable = function (container, options) {
    const columns = JSON.parse(container.getAttribute('data-columns') || '[]');
    const head = document.createElement('table');
    head.className = 'vt vt-head';
    head.setAttribute('role', 'presentation');
    const headRow = document.createElement('tr');
    const headers = columns.map((c) => {
      const th = document.createElement('th');
      th.textContent = c;
      th.setAttribute('role', 'columnheader');
      headRow.appendChild(th);
      return th;
    });
    head.appendChild(headRow);
    const scroller = document.createElement('div');
    scroller.className = 'vt-scroller';
    const spacer = document.createElement('div');
    spacer.className = 'vt-spacer';
    const body = document.createElement('table');
    body.className = 'vt vt-body';
    const tbody = document.createElement('tbody');
    body.appendChild(tbody);
    spacer.appendChild(body);
    scroller.appendChild(spacer);
    container.appendChild(head);
    container.appendChild(scroller);

    let view = [];
    let pool = [];
    // Newest first: the last row of the array is shown at the top.
    const at = (index) => (options.reversed ? view[view.length - 1 - index] : view[index]);
    let selected = -1;
    let scheduled = false;

    const ensurePool = () => {
      const want = Math.ceil((scroller.clientHeight || 600) / ROW_HEIGHT) + 2 * OVERSCAN;
      while (pool.length < want) {
        const tr = document.createElement('tr');
        tr.setAttribute('role', 'row');
        for (let c = 0; c < columns.length; c++) {
          const td = document.createElement('td');
          td.setAttribute('role', 'gridcell');
          td.appendChild(document.createTextNode(''));
          tr.appendChild(td);
        }
        tbody.appendChild(tr);
        pool.push(tr);
      }
    };

    const paint = () => {
      scheduled = false;
      ensurePool();
      spacer.style.height = `${view.length * ROW_HEIGHT}px`;
      const first = Math.max(0, Math.floor(scroller.scrollTop / ROW_HEIGHT) - OVERSCAN);
      body.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
      for (let i = 0; i < pool.length; i++) {
        const tr = pool[i];
        const index = first + i;
        const row = at(index);
        if (row === undefined) {
          tr.hidden = true;
          continue;
        }
        tr.hidden = false;
        if (tr._row !== row) {
          tr._row = row;
          // The row's right-click menu (contributes.menus "webview/context") reads this.
          if (options.rowContext) tr.setAttribute('data-vscode-context', options.rowContext(row));
          const cells = options.cells(row);
          for (let c = 0; c < cells.length && c < tr.children.length; c++) {
            const td = tr.children[c];
            const [text, title, cls] = cells[c];
            td.firstChild.nodeValue = text;
            td.title = title || '';
            td.className = cls || '';
          }
        }
        tr.dataset.index = String(index);
        tr.classList.toggle('selected', index === selected);
        tr.setAttribute('aria-selected', index === selected ? 'true' : 'false');
      }
    };
    const schedule = () => {
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(paint);
    };

    scroller.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    tbody.addEventListener('click', (event) => {
      const tr = event.target instanceof Element ? event.target.closest('tr') : null;
      if (!tr || tr.dataset.index === undefined) return;
      selected = Number(tr.dataset.index);
      schedule();
      const row = at(selected);
      // The column clicked, for pages where one cell is a link of its own (the ACS table's template).
      const td = event.target.closest('td');
      if (row !== undefined) options.onOpen(row, td ? Array.prototype.indexOf.call(tr.children, td) : -1);
    });
    container.addEventListener('keydown', (event) => {
      if (view.length === 0) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        selected = Math.max(0, Math.min(view.length - 1, selected + (event.key === 'ArrowDown' ? 1 : -1)));
        const top = selected * ROW_HEIGHT;
        if (top < scroller.scrollTop) scroller.scrollTop = top;
        else if (top + ROW_HEIGHT > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = top + ROW_HEIGHT - scroller.clientHeight;
        schedule();
      } else if (event.key === 'Enter' && at(selected) !== undefined) {
        options.onOpen(at(selected));
      }
    });

    return {
      /** The rows to show, in order (the caller filters and sorts). */
      setRows(rows) {
        view = rows;
        if (selected >= view.length) selected = -1;
        for (const tr of pool) tr._row = undefined;
        schedule();
      },
      /** Rows were appended to the array given last. */
      grew() {
        schedule();
      },
      setHeaders(texts) {
        texts.forEach((t, i) => {
          if (t !== undefined && t !== null && headers[i]) headers[i].textContent = t;
        });
      },
      get scroller() {
        return scroller;
      },
      get rowCount() {
        return view.length;
      },
    };
  };
})();
