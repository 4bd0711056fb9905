// A template, interface or choice name that opens its definition in the workspace's Daml source
//. The ids travel as data-* attributes, escaped like every ledger string; the page
// script posts them as an `openDaml` message and the extension checks them before use.
import { html, ledgerText, type SafeHtml } from './safeHtml';
import * as l10n from '../../l10n/l10n';

export interface DamlLinkTarget {
  /** The template or interface id the name belongs to (for a choice: where it is declared). */
  templateId: string;
  choice?: string;
  packageName?: string;
}

/** `label` (ledger text) as a link to the Daml definition of `t`. */
export function damlLink(label: string, t: DamlLinkTarget): SafeHtml {
  const title = t.choice
    ? l10n.t('{0}: open the Daml definition of choice {1}', t.templateId, t.choice)
    : l10n.t('{0}: open its Daml definition', t.templateId);
  return html`<a href="#" class="daml-link" data-daml-template="${t.templateId}"${t.choice ? html` data-daml-choice="${t.choice}"` : ''}${t.packageName ? html` data-daml-package="${t.packageName}"` : ''} title="${title}">${ledgerText(label)}</a>`;
}
