// The panels' tables with a header row, made one way: in a container that scrolls sideways when the
// table is wider than the panel (rather than squeezing its columns to a few letters), header cells
// that keep their name on one line, hold the head of their column's content (`min`, in ch) and carry
// a resize handle (wired by the page's script, src/webview/pageKit/columns.ts). Pure: tested without VS Code.
import * as l10n from '../../l10n/l10n';
import { html, type SafeHtml } from './safeHtml';

export interface DataColumn {
  label: string;
  /** The narrowest the column gets, in ch (an id, a time): what it holds shows its head. */
  min?: number;
}

/** The strings the page's script writes on resize handles it makes itself (the virtual tables'). */
export function columnStrings(): Record<string, string> {
  return {
    resizeColumn: l10n.t('Resize column {0}', '{0}'),
    resizeHint: l10n.t('Drag, or use the arrow keys, to resize; double-click to reset'),
  };
}

function header(c: DataColumn): SafeHtml {
  const name = c.label || l10n.t('(unnamed)');
  return html`<th scope="col"${c.min ? html` data-min="${String(c.min)}"` : ''}>${c.label}<span class="col-resize" role="separator" aria-orientation="vertical" tabindex="0" aria-label="${l10n.t('Resize column {0}', name)}" title="${l10n.t('Drag, or use the arrow keys, to resize; double-click to reset')}"></span></th>`;
}

/**
 * A table: `kind` names it for the widths the page keeps (one kind, one set of widths), `className`
 * its look, `attrs` more attributes (role, aria-label), `body` its `<tbody>` whole. `scroll: false`
 * leaves out the sideways container, for a table whose header sticks under the toolbar as the page
 * scrolls (a scroll container would hold it instead).
 */
export function dataTable(o: {
  kind: string;
  className: string;
  columns: readonly DataColumn[];
  body: SafeHtml;
  attrs?: SafeHtml;
  scroll?: boolean;
}): SafeHtml {
  const table = html`<table class="data-table ${o.className}" data-columns-kind="${o.kind}"${o.attrs ? html` ${o.attrs}` : ''}><thead><tr>${o.columns.map(header)}</tr></thead>${o.body}</table>`;
  return o.scroll === false ? table : html`<div class="table-scroll">${table}</div>`;
}
