// Everything the node said about an error, the same way in every panel: code, cause, category,
// correlation and trace ids, whether the answer is definite, when to retry, and the resources
// it names (ids there are links). Missing and null fields (real nodes send null) are left out.
import { resourceKeyOf, type LedgerApiError } from '../../ledger/ledgerApiError';
import type { NotFoundExplanation } from '../../lookups/notFoundFacts';
import { field, ledgerString } from './ledgerValues';
import { html, ledgerText, type SafeHtml } from './safeHtml';
import * as l10n from '../../l10n/l10n';

/** Canton's error categories (base/errors/.../ErrorCategory.scala), in words. */
const CATEGORIES: Record<number, string> = {
  1: 'transient failure: retry later',
  2: 'contention on a shared resource: retry',
  3: 'deadline exceeded: the outcome is unknown',
  4: 'internal error (details redacted)',
  5: 'malicious or faulty behaviour (redacted)',
  6: 'authentication failed (redacted)',
  7: 'insufficient permission (redacted)',
  8: 'invalid request',
  9: 'invalid for the current state',
  10: 'already exists',
  11: 'not found',
  12: 'offset beyond the ledger end',
  13: 'background process degraded',
  14: 'unsupported operation',
};

export function categoryInWords(category: number | undefined | null): string | undefined {
  if (typeof category !== 'number') return undefined;
  if (category === -1) return l10n.t('redacted by the node (a security-sensitive error)');
  return CATEGORIES[category] ? `${category}: ${CATEGORIES[category]}` : String(category);
}

function definite(v: boolean | undefined | null): string | undefined {
  if (v === true) return l10n.t('yes: the request was definitely not applied');
  if (v === false) return l10n.t('no: the request may or may not have been applied');
  return undefined;
}

export function errorDetailsHtml(e: LedgerApiError): SafeHtml {
  const c = e.cantonError;
  const resources = Array.isArray(c?.resources)
    ? (c.resources as unknown[]).filter((r): r is [string, string] => Array.isArray(r) && r.length === 2 && r.every((x) => typeof x === 'string'))
    : [];
  const resourceRows = resources.map(([k, v]) => field(resourceKeyOf(k), ledgerString(v)));
  const request = e.method && e.path ? `${e.method} ${e.path}${e.status ? ` → ${e.status}` : ''}` : e.status ? String(e.status) : undefined;
  return html`<details class="error-details"><summary>${l10n.t('What the node said')}</summary><table class="fields"><tbody>
${field(l10n.t('Request'), request)}
${field(l10n.t('Code'), c?.code, 'code')}
${field(l10n.t('Cause'), c?.cause ? html`${ledgerText(c.cause)}` : undefined, 'cause')}
${field(l10n.t('Category'), categoryInWords(c?.errorCategory), 'errorCategory')}
${field(l10n.t('gRPC status'), c?.grpcCodeValue, 'grpcCodeValue')}
${field(l10n.t('Definite answer'), definite(c?.definiteAnswer), 'definiteAnswer')}
${field(l10n.t('Retry after'), c?.retryInfo, 'retryInfo')}
${field(l10n.t('Correlation id'), c?.correlationId, 'correlationId')}
${field(l10n.t('Trace id'), c?.traceId, 'traceId')}
${resourceRows}
${field(l10n.t('Body'), e.plainText ?? e.bodyPreview)}
</tbody></table></details>`;
}

/** The facts behind a not-found (who asked with which rights, the pruning point, other nodes), and the case they decide. */
export function notFoundFactsHtml(facts: NotFoundExplanation | undefined): SafeHtml {
  if (!facts) return html``;
  return html`<table class="fields facts" data-case="${facts.case}"><tbody>
${facts.facts.map((f) => html`<tr><th scope="row">${ledgerText(f.label)}</th><td>${ledgerText(f.value)}</td></tr>`)}
</tbody></table>${facts.case === 'maybePruned' || facts.case === 'notVisible' ? html`<p><a href="#" data-action="allNodes">${l10n.t('Look Further: Look Up on All Nodes')}</a></p>` : html``}`;
}
