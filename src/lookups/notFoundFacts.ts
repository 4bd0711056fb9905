// "Not found", explained from facts the node and the other nodes gave: which case holds, and the
// facts behind it. Pure (no `vscode`): each case is tested in the fast tier.
import { shortenPartyId } from '../ids/ledgerIds';
import { describeRightsUsed, sourceName, type EffectiveParties, type LearnedAccess } from '../auth/userRights';
import * as l10n from '../l10n/l10n';

export type NotFoundCase = 'wrongKind' | 'deactivated' | 'prunedHere' | 'seenElsewhere' | 'maybePruned' | 'notVisible';

/** Another configured node's remembered answer for the same id (from its cache: no request). */
export interface Sighting {
  node: string;
  /** The parties it read as there (empty: any party). */
  parties: readonly string[];
  /** The offset it has there (the create's for a contract, the update's), when known. */
  offset?: number;
  summary: string;
}

export interface NotFoundFacts {
  kind: 'contract' | 'update';
  id: string;
  nodeName: string;
  user?: string;
  effective: EffectiveParties;
  access?: LearnedAccess;
  /** The node's pruning point (latest-pruned-offsets); undefined when it could not be read. */
  prunedUpTo?: number;
  /** Why the pruning point is not known, when it is not. */
  prunedUnknown?: string;
  elsewhere: readonly Sighting[];
  /** The id has the shape of another kind ("update" for a contract lookup of a 1220… id). */
  otherKind?: 'contract' | 'update' | 'party';
}

export interface NotFoundExplanation {
  case: NotFoundCase;
  /** One paragraph: what holds, and what to do. */
  text: string;
  /** The facts behind it, label → value, in order. */
  facts: { label: string; value: string }[];
}

export function explainNotFound(f: NotFoundFacts): NotFoundExplanation {
  const what = f.kind === 'contract' ? l10n.t('Contract') : l10n.t('Update');
  const facts: NotFoundExplanation['facts'] = [];
  facts.push({ label: l10n.t('Asked as'), value: `${f.user ? `${f.user}: ` : ''}${describeRightsUsed(f.effective)} (${sourceName(f.effective.source)})` });
  if (f.effective.note) facts.push({ label: l10n.t('Note'), value: f.effective.note });
  if (f.prunedUpTo !== undefined)
    facts.push({ label: l10n.t('Pruned up to'), value: f.prunedUpTo > 0 ? l10n.t('offset {0}', f.prunedUpTo) : l10n.t('nothing pruned') });
  else if (f.prunedUnknown) facts.push({ label: l10n.t('Pruned up to'), value: l10n.t('not known ({0})', f.prunedUnknown) });
  for (const s of f.elsewhere) {
    facts.push({
      label: l10n.t('On {0}', s.node),
      value: `${s.summary} · ${s.parties.length ? s.parties.map(shortenPartyId).join(', ') : l10n.t('any party')}${s.offset !== undefined ? ` · ${l10n.t('offset {0}', s.offset)}` : ''}`,
    });
  }
  const done = (c: NotFoundCase, text: string): NotFoundExplanation => ({ case: c, text, facts });

  if (f.otherKind && f.otherKind !== (f.kind === 'contract' ? 'contract' : 'update')) {
    const other = f.otherKind === 'update' ? l10n.t('an update id') : f.otherKind === 'contract' ? l10n.t('a contract id') : l10n.t('a party id');
    return done(
      'wrongKind',
      l10n.t(
        '{0} not found on {1}: this id has the shape of {2}, not of a {3} id. Open it as what it is.',
        what,
        f.nodeName,
        other,
        f.kind === 'contract' ? l10n.t('contract') : l10n.t('update'),
      ),
    );
  }
  if (f.access?.state === 'known' && f.access.user.isDeactivated) {
    return done(
      'deactivated',
      l10n.t("{0} not found on {1}: the token's user {2} is deactivated on this node, which denies it all access.", what, f.nodeName, f.access.user.id),
    );
  }
  const pruned = f.prunedUpTo ?? 0;
  const prunedHere = f.elsewhere.find((s) => s.offset !== undefined && pruned > 0 && s.offset <= pruned);
  if (prunedHere) {
    return done(
      'prunedHere',
      l10n.t(
        "{0} not found on {1}: pruned here. {2} has it at offset {3}, at or below this node's pruning point ({4}).",
        what,
        f.nodeName,
        prunedHere.node,
        prunedHere.offset!,
        pruned,
      ),
    );
  }
  const seen = f.elsewhere[0];
  if (seen) {
    const as = seen.parties.length ? seen.parties.map(shortenPartyId).join(', ') : l10n.t('any party');
    return done(
      'seenElsewhere',
      l10n.t(
        '{0} not found on {1} for {2}, but {3} sees it as {4}: it is not visible to the parties asked here (only stakeholders and witnesses see it), or this participant does not host them.',
        what,
        f.nodeName,
        describeRightsUsed(f.effective),
        seen.node,
        as,
      ),
    );
  }
  if (pruned > 0) {
    return done(
      'maybePruned',
      l10n.t(
        '{0} not found on {1} for {2}. This node has pruned up to offset {3}: if the {4} is older, it is gone here; otherwise it is not visible to these parties or never existed here. "Look Up on All Nodes" asks the others.',
        what,
        f.nodeName,
        describeRightsUsed(f.effective),
        pruned,
        f.kind === 'contract' ? l10n.t('contract') : l10n.t('update'),
      ),
    );
  }
  return done(
    'notVisible',
    l10n.t(
      '{0} not found on {1} for {2}. Nothing is pruned here, so it never existed on this participant or is not visible to these parties (only stakeholders and witnesses see it). "Look Up on All Nodes" asks the others.',
      what,
      f.nodeName,
      describeRightsUsed(f.effective),
    ),
  );
}
