// A Daml value rendered with its Daml-LF type: each field's declared type on hover, `ContractId T`
// values as contract links that say which template they point to, enums and variants named with
// their type. The signatures come as data; where they do not know a type, the value is drawn as
// valueTree draws it. Pure.
import { lookup, resolveEntity, substitute } from '../../daml/lf/lfCompletions';
import { qualified, showType, type LfType, type PackageSignature } from '../../daml/lf/lfSignatures';
import * as l10n from '../../l10n/l10n';
import { idLink, ledgerString, valueTree } from './ledgerValues';
import { html, ledgerText, type SafeHtml } from './safeHtml';

const OPEN_DEPTH = 2;

const node = (summary: SafeHtml, items: SafeHtml[], depth: number, list: 'ul' | 'ol' = 'ul') =>
  list === 'ol'
    ? html`<details class="v-node"${depth < OPEN_DEPTH ? html` open` : ''}><summary>${summary}</summary><ol class="v-list">${items}</ol></details>`
    : html`<details class="v-node"${depth < OPEN_DEPTH ? html` open` : ''}><summary>${summary}</summary><ul class="v-list">${items}</ul></details>`;

const key = (name: string | number, type: LfType) => html`<span class="v-key" title="${showType(type)}">${ledgerText(String(name))}</span>`;

const builtin = (t: LfType, name: string) => t.kind === 'builtin' && t.builtin === name;

/** `value` drawn as a value of type `t`. */
export function typedValueTree(value: unknown, t: LfType, sigs: readonly PackageSignature[], depth = 0): SafeHtml {
  if (t.kind === 'builtin') {
    const [a, b] = t.args;
    if (t.builtin === 'ContractId' && typeof value === 'string') {
      const target = a?.kind === 'con' ? a.ref : undefined;
      if (!target) return idLink(value, 'contract');
      return html`${idLink(value, 'contract')} <span class="v-cid-type muted" title="${l10n.t('A contract of {0}', qualified(target))}">${ledgerText(target.name)}</span>`;
    }
    if (t.builtin === 'Optional' && a) {
      if (value === null || value === undefined) return html`<span class="v-null" title="${showType(t)}">null</span>`;
      // An Optional of an Optional is a list of none or one in the JSON API's encoding.
      if (builtin(a, 'Optional')) return Array.isArray(value) && value.length === 1 ? typedValueTree(value[0], a, sigs, depth) : valueTree(value, depth);
      return typedValueTree(value, a, sigs, depth);
    }
    if (t.builtin === 'List' && a && Array.isArray(value)) {
      if (value.length === 0) return html`<span class="v-empty" title="${showType(t)}">[]</span>`;
      return node(
        html`[${value.length}]`,
        value.map((v, i) => html`<li>${key(i, a)} ${typedValueTree(v, a, sigs, depth + 1)}</li>`),
        depth,
        'ol',
      );
    }
    if (t.builtin === 'TextMap' && a && value && typeof value === 'object' && !Array.isArray(value)) {
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length === 0) return html`<span class="v-empty" title="${showType(t)}">{}</span>`;
      return node(
        html`{${entries.length}}`,
        entries.map(([k, v]) => html`<li>${key(k, a)} ${typedValueTree(v, a, sigs, depth + 1)}</li>`),
        depth,
      );
    }
    if (t.builtin === 'GenMap' && a && b && Array.isArray(value)) {
      if (value.length === 0) return html`<span class="v-empty" title="${showType(t)}">[]</span>`;
      const items = value.map((pair, i) =>
        Array.isArray(pair) && pair.length === 2
          ? html`<li>${key(i, t)} ${typedValueTree(pair[0], a, sigs, depth + 1)} &rarr; ${typedValueTree(pair[1], b, sigs, depth + 1)}</li>`
          : html`<li>${valueTree(pair, depth + 1)}</li>`,
      );
      return node(html`[${value.length}]`, items, depth, 'ol');
    }
    return valueTree(value, depth);
  }
  const found = lookup(sigs, t);
  if (!found || t.kind !== 'con') return valueTree(value, depth);
  const { dt, args } = found;
  const env = new Map(dt.params.map((p, i) => [p, args[i]] as [string, LfType]));
  const typeName = t.ref.name;
  if (dt.kind === 'enum' && typeof value === 'string')
    return html`<span class="v-enum" title="${l10n.t('{0}, an enum of {1}', value, qualified(t.ref))}"><span class="muted">${ledgerText(typeName)}.</span>${ledgerText(value)}</span>`;
  if (dt.kind === 'variant' && value && typeof value === 'object' && !Array.isArray(value)) {
    const { tag, value: inner } = value as { tag?: unknown; value?: unknown };
    const ctor = typeof tag === 'string' ? dt.constructors.find((c) => c.name === tag) : undefined;
    if (!ctor) return valueTree(value, depth);
    const ctorType = substitute(ctor.type, env);
    const name = html`<span class="v-variant" title="${l10n.t('{0}, a constructor of {1}', ctor.name, qualified(t.ref))}"><span class="muted">${ledgerText(typeName)}.</span>${ledgerText(ctor.name)}</span>`;
    if (builtin(ctorType, 'Unit')) return name;
    return html`${name} ${typedValueTree(inner, ctorType, sigs, depth)}`;
  }
  if (dt.kind === 'record' && value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return html`<span class="v-empty" title="${typeName}">{}</span>`;
    const types = new Map(dt.fields.map((f) => [f.name, substitute(f.type, env)] as [string, LfType]));
    const items = entries.map(([k, v]) => {
      const ft = types.get(k);
      return ft
        ? html`<li>${key(k, ft)} ${typedValueTree(v, ft, sigs, depth + 1)}</li>`
        : html`<li><span class="v-key">${ledgerText(k)}</span> ${valueTree(v, depth + 1)}</li>`;
    });
    return node(html`<span title="${showType(t)}">${ledgerText(typeName)}</span> {${entries.length}}`, items, depth);
  }
  return typeof value === 'string' ? ledgerString(value) : valueTree(value, depth);
}

/** `value` typed as `t` when a type is known, else drawn as valueTree draws it. */
const typedOrNot = (value: unknown, t: LfType | undefined, sigs: readonly PackageSignature[]) => (t ? typedValueTree(value, t, sigs) : valueTree(value));

/** A create argument drawn with its template's record type, when the signatures know the template. */
export function createArgumentTree(value: unknown, templateId: string, sigs: readonly PackageSignature[]): SafeHtml {
  const entity = resolveEntity(sigs, templateId);
  if (!entity?.template) return valueTree(value);
  const [, module] = templateId.split(':');
  const t: LfType = { kind: 'con', ref: { packageId: entity.sig.packageId, module: module ?? entity.module, name: entity.template.name }, args: [] };
  return typedValueTree(value, t, sigs);
}

/** A template's key type, when the signatures know the template and it has a key. */
export function keyType(sigs: readonly PackageSignature[], templateId: string): LfType | undefined {
  return resolveEntity(sigs, templateId)?.template?.keyType;
}

/** An interface's view type, when the signatures know the interface. */
export function viewType(sigs: readonly PackageSignature[], interfaceId: string): LfType | undefined {
  return resolveEntity(sigs, interfaceId)?.iface?.viewType;
}

/** A contract key drawn with its template's key type. */
export const contractKeyTree = (value: unknown, templateId: string, sigs: readonly PackageSignature[]) => typedOrNot(value, keyType(sigs, templateId), sigs);

/** An interface view drawn with the interface's view type. */
export const viewValueTree = (value: unknown, interfaceId: string, sigs: readonly PackageSignature[]) => typedOrNot(value, viewType(sigs, interfaceId), sigs);

/**
 * A choice's argument and return types: the interface's choice when the exercise went through one
 * (`interfaceId`), else the template's.
 */
export function choiceTypes(
  sigs: readonly PackageSignature[],
  templateId: string,
  choice: string,
  interfaceId?: string | null,
): { argType: LfType; returnType: LfType } | undefined {
  const entity = resolveEntity(sigs, interfaceId || templateId);
  const found = (interfaceId ? entity?.iface : entity?.template)?.choices.find((c) => c.name === choice);
  return found && { argType: found.argType, returnType: found.returnType };
}

/** An exercise's choice argument and result, each drawn with its declared type when the signatures know the choice. */
export function exerciseTrees(
  x: { templateId: string; choice: string; interfaceId?: string | null; choiceArgument: unknown; exerciseResult?: unknown },
  sigs: readonly PackageSignature[],
): { argument: SafeHtml; result: SafeHtml | undefined; types?: { argType: LfType; returnType: LfType } } {
  const types = choiceTypes(sigs, x.templateId, x.choice, x.interfaceId);
  return {
    argument: typedOrNot(x.choiceArgument, types?.argType, sigs),
    result: x.exerciseResult === undefined ? undefined : typedOrNot(x.exerciseResult, types?.returnType, sigs),
    types,
  };
}
