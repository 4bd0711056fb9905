// HTML built with a tagged template that escapes every interpolation unless it is already
// SafeHtml: ledger data (create arguments, template ids, error causes) is attacker-controlled.
import * as l10n from '../../l10n/l10n';

export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = SafeHtml | string | number | boolean | null | undefined | readonly Part[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

const SPECIAL = /[&<>"'`]/;

export function escapeHtml(s: string): string {
  // Most strings have nothing to escape: testing first is cheaper than a replace that finds nothing.
  return SPECIAL.test(s) ? s.replace(/[&<>"'`]/g, (c) => ESCAPES[c]) : s;
}

function render(p: Part): string {
  if (p instanceof SafeHtml) return p.text;
  if (Array.isArray(p)) return p.map(render).join('');
  if (p === null || p === undefined || p === false) return '';
  return escapeHtml(String(p));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/**
 * A localized sentence whose {0}, {1}… hold markup: the sentence (and any translation of it) is
 * escaped; SafeHtml arguments are kept, other arguments escaped.
 */
export function tHtml(message: string, ...args: Part[]): SafeHtml {
  const sentence = l10n.t(message, ...args.map((_, i) => `{${i}}`));
  return new SafeHtml(
    sentence
      .split(/\{(\d+)\}/)
      .map((piece, k) => (k % 2 === 0 ? escapeHtml(piece) : render(args[Number(piece)])))
      .join(''),
  );
}

export function join(parts: readonly SafeHtml[], sep = ''): SafeHtml {
  return new SafeHtml(parts.map((p) => p.text).join(sep));
}

// Bidi overrides and control characters would let a string disguise itself ("Trojan Source"):
// show them as visible escapes.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const HAS_INVISIBLE = new RegExp(INVISIBLE.source);

/** A ledger string as text: escaped, bidi-isolated, control characters made visible. */
export function ledgerText(s: string): SafeHtml {
  if (!HAS_INVISIBLE.test(s)) return new SafeHtml(`<bdi>${escapeHtml(s)}</bdi>`);
  const parts: string[] = [];
  let last = 0;
  for (const m of s.matchAll(INVISIBLE)) {
    parts.push(escapeHtml(s.slice(last, m.index)));
    parts.push(`<span class="ctrl" title="${escapeHtml(l10n.t('control character'))}">\\u${m[0].charCodeAt(0).toString(16).padStart(4, '0')}</span>`);
    last = m.index + 1;
  }
  parts.push(escapeHtml(s.slice(last)));
  return new SafeHtml(`<bdi>${parts.join('')}</bdi>`);
}
