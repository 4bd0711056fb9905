// Renders ledger values: ids as links, parties shortened with the full id on hover and copy,
// Daml values (create arguments, choice arguments, views) as a collapsible tree.
import { classifyLedgerId, shortId, shortenPartyId } from '../../ids/ledgerIds';
import { html, join, ledgerText, type SafeHtml } from './safeHtml';
import * as l10n from '../../l10n/l10n';

/** A contract or update id that opens its panel. */
export function idLink(id: string, kind: 'contract' | 'update'): SafeHtml {
  const copy = kind === 'contract' ? l10n.t('Copy contract id') : l10n.t('Copy update id');
  return html`<a href="#" class="id-link" data-open-id="${id}" data-kind="${kind}" title="${kind === 'contract' ? l10n.t('Open contract {0}', id) : l10n.t('Open update {0}', id)}"><code>${shortId(id)}</code></a><button class="icon copy" data-copy="${id}" title="${copy}" aria-label="${copy}"></button>`;
}

export function party(p: string): SafeHtml {
  return html`<span class="party" title="${p}">${ledgerText(shortenPartyId(p))}</span><button class="icon copy" data-copy="${p}" title="${l10n.t('Copy party id')}" aria-label="${l10n.t('Copy party id {0}', p)}"></button>`;
}

export function parties(ps: readonly string[] | undefined): SafeHtml {
  if (!ps || ps.length === 0) return html`<span class="muted">${l10n.t('none')}</span>`;
  return join(
    ps.map((p) => html`<span class="party-item">${party(p)}</span>`),
    ' ',
  );
}

/**
 * A template or interface id (`<package id>:Module:Entity`): its short name, the whole id (with
 * the package id) on hover and copy.
 */
export function typeId(id: string): SafeHtml {
  const name = id.split(':').slice(1).join(':') || id;
  return html`<span class="type-id" title="${id}">${ledgerText(name)}</span><button class="icon copy" data-copy="${id}" title="${l10n.t('Copy the id with its package id')}" aria-label="${l10n.t('Copy {0}', id)}"></button>`;
}

export function typeIds(ids: readonly string[] | undefined | null): SafeHtml | undefined {
  return ids && ids.length > 0 ? join(ids.map(typeId), ', ') : undefined;
}

/**
 * An interface view's status (a google.rpc.Status): computed when its code is 0 or absent (proto3
 * leaves a zero out), else why the view failed: its status code and message.
 */
export function viewStatus(status: { code?: number | null; message?: string | null } | null | undefined): SafeHtml {
  const code = status?.code ?? 0;
  if (code === 0) return html`${l10n.t('computed')}`;
  return html`<span class="error-text">${l10n.t('failed (gRPC status {0})', code)}</span>${status?.message ? html` <span>${ledgerText(status.message)}</span>` : html``}`;
}

/** A string that may be an id: contract and update ids become links, party ids are shortened. */
export function ledgerString(s: string): SafeHtml {
  if (s.length >= 66 && s.length <= 400) {
    const c = classifyLedgerId(s);
    if (c.kind === 'contract') return idLink(s, 'contract');
    if (c.kind === 'update') return idLink(s, 'update');
    if (c.kind === 'party') return party(s);
  }
  return html`<span class="v-str">"${ledgerText(s)}"</span>`;
}

const OPEN_DEPTH = 2;
const SYNCHRONIZER_KEY = /synchronizer|domain/i;

/** A Daml JSON value as nested <details>; the first levels open. */
export function valueTree(value: unknown, depth = 0): SafeHtml {
  if (value === null || value === undefined) return html`<span class="v-null">null</span>`;
  if (typeof value === 'string') return ledgerString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return html`<span class="v-lit">${String(value)}</span>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return html`<span class="v-empty">[]</span>`;
    const items = value.map((v, i) => html`<li><span class="v-key">${i}</span> ${valueTree(v, depth + 1)}</li>`);
    return html`<details class="v-node"${depth < OPEN_DEPTH ? html` open` : ''}><summary>[${value.length}]</summary><ol class="v-list">${items}</ol></details>`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return html`<span class="v-empty">{}</span>`;
    // A synchronizer id has a party id's shape: where the field says it is one, it is not shown as a party.
    const items = entries.map(
      ([k, v]) =>
        html`<li><span class="v-key">${ledgerText(k)}</span> ${typeof v === 'string' && SYNCHRONIZER_KEY.test(k) ? html`<span class="v-str synchronizer" title="${l10n.t('Synchronizer {0}', v)}">"${ledgerText(v)}"</span>` : valueTree(v, depth + 1)}</li>`,
    );
    return html`<details class="v-node"${depth < OPEN_DEPTH ? html` open` : ''}><summary>{${entries.length}}</summary><ul class="v-list">${items}</ul></details>`;
  }
  const literal = typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' ? value.toString() : typeof value;
  return html`<span class="v-lit">${literal}</span>`;
}

/** A definition list row; rows with no value are left out (missing optional fields are fine). */
export function field(label: string, value: SafeHtml | string | number | boolean | undefined | null, hint?: string): SafeHtml {
  if (value === undefined || value === null || value === '') return html``;
  const shown = typeof value === 'object' ? value : html`${ledgerText(String(value))}`;
  return html`<tr><th scope="row"${hint ? html` title="${hint}"` : ''}>${label}</th><td>${shown}</td></tr>`;
}
