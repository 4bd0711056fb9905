// What the review of a `*.commands.json` checks before Submit: the token user's rights for each
// acting and reading party (Canton's authorizer wants CanActAs, or CanActAsAnyParty, for every
// actAs party and a read right for every readAs party; docs/commands.md), what each command does,
// and the deduplication of the command id. Pure: the panel shows it, the tests call it.
import type { ExecuteRight } from '../auth/userRights';
import { shortenPartyId } from '../ids/ledgerIds';
import type { JsCommands } from '../ledger/apiTypes';
import * as l10n from '../l10n/l10n';
import { mayReadAs, type Finding } from './preSendChecks';

export interface CommandsReviewInput {
  request: JsCommands;
  tokenUser?: string;
  /** The user's rights as the node lists them; undefined: not known (then `rightsUnknownReason`). */
  rights?: ExecuteRight[];
  rightsUnknownReason?: string;
  /** The node's version (GET /v2/version), when known: what its schema has. */
  nodeVersion?: string;
  /** The arguments checked against the node's Daml-LF types; undefined: not checked (no template known). */
  argumentProblems?: string[];
  /** The arguments checked against the workspace's Daml source, for templates the node's types lack; undefined: not checked. */
  sourceArgumentProblems?: string[];
}

const has = (rights: ExecuteRight[], right: ExecuteRight) => rights.some((r) => JSON.stringify(r) === JSON.stringify(right));

export function mayActAs(rights: ExecuteRight[], party: string): boolean {
  return has(rights, 'canActAsAnyParty') || has(rights, { canActAs: party });
}

export function commandsChecks(input: CommandsReviewInput): Finding[] {
  const findings: Finding[] = [];
  const add = (severity: Finding['severity'], text: string) => findings.push({ id: 'rights', severity, text });
  const user = input.tokenUser ?? l10n.t("the token's user");
  const actAs = input.request.actAs ?? [];
  const readAs = input.request.readAs ?? [];
  // The one difference of JsCommands between the versions: `limit` of a prefetched key is 3.5+.
  const prefetch = (input.request.prefetchContractKeys ?? []) as { limit?: unknown }[];
  if (/^3\.4\b/.test(input.nodeVersion ?? '') && prefetch.some((k) => k.limit !== undefined))
    findings.push({
      id: 'version',
      severity: 'warn',
      text: l10n.t('prefetchContractKeys[].limit is new in Canton 3.5: a {0} node ignores it.', input.nodeVersion ?? '3.4'),
    });
  if (input.argumentProblems?.length === 0) findings.push({ id: 'types', severity: 'ok', text: l10n.t("The arguments fit the types of the node's packages.") });
  for (const p of input.argumentProblems ?? []) findings.push({ id: 'types', severity: 'block', text: l10n.t('{0}: the node would refuse the commands.', p) });
  // The source may not be what the node runs: said, not enforced.
  for (const p of input.sourceArgumentProblems ?? [])
    findings.push({ id: 'types', severity: 'warn', text: l10n.t("{0} (by the workspace's Daml source of the template).", p) });
  if (!input.rights) {
    add(
      'warn',
      l10n.t('The rights of {0} are not known ({1}): the node checks them when it gets the commands.', user, input.rightsUnknownReason ?? l10n.t('not read')),
    );
    return findings;
  }
  const rights = input.rights;
  for (const p of actAs)
    if (mayActAs(rights, p)) add('ok', l10n.t('{0} may act as {1}.', user, shortenPartyId(p)));
    else
      add(
        'block',
        l10n.t(
          '{0} lacks CanActAs for {1}: the node would refuse the commands (403). Act as a party the user may act as, or have the right granted.',
          user,
          shortenPartyId(p),
        ),
      );
  for (const p of readAs)
    if (mayReadAs(rights, p)) add('ok', l10n.t('{0} may read as {1}.', user, shortenPartyId(p)));
    else add('block', l10n.t('{0} lacks CanReadAs for {1}: the node would refuse the commands (403).', user, shortenPartyId(p)));
  return findings;
}

/** One line per command: what it does, for the review. */
export interface CommandLine {
  kind: 'create' | 'exercise' | 'createAndExercise' | 'exerciseByKey';
  templateId: string;
  choice?: string;
  contractId?: string;
  argument: unknown;
  /** What is sent besides the argument: a create-and-exercise's create argument, an exercise-by-key's key. */
  also?: { label: 'createArguments' | 'contractKey'; value: unknown };
}

export function commandLines(request: JsCommands): CommandLine[] {
  return (request.commands ?? []).map((c): CommandLine => {
    const [kind, raw] = Object.entries(c as Record<string, Record<string, unknown>>)[0] ?? ['', {}];
    const body = raw ?? {};
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    const templateId = text(body.templateId);
    switch (kind) {
      case 'CreateCommand':
        return { kind: 'create', templateId, argument: body.createArguments };
      case 'CreateAndExerciseCommand':
        return {
          kind: 'createAndExercise',
          templateId,
          choice: text(body.choice),
          argument: body.choiceArgument,
          also: { label: 'createArguments', value: body.createArguments },
        };
      case 'ExerciseByKeyCommand':
        return {
          kind: 'exerciseByKey',
          templateId,
          choice: text(body.choice),
          argument: body.choiceArgument,
          also: { label: 'contractKey', value: body.contractKey },
        };
      default:
        return { kind: 'exercise', templateId, choice: text(body.choice), contractId: text(body.contractId), argument: body.choiceArgument };
    }
  });
}

/**
 * Which command id Submit Again offers first, from the last outcome: after a definite refusal or a
 * commit, a new one (the same change id would be refused or deduplicated); when the outcome is not
 * known, the same one (the node then commits the change at most once).
 */
export function submitAgainFirst(outcome: { state: string; why?: { definite?: boolean } } | undefined): 'same' | 'new' {
  if (!outcome) return 'same';
  if (outcome.state === 'committed') return 'new';
  if (outcome.state === 'failed') return outcome.why?.definite === false ? 'same' : 'new';
  return 'same';
}
