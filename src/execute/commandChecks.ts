// The checks that `*.prepare.json` and `*.commands.json` share: the parties and the command list
// of Canton's commands (JsCommands, JsPrepareSubmissionRequest), each problem on its JSON path.
import * as l10n from '../l10n/l10n';

export const PARTY = /^[A-Za-z0-9_\- :]+::1220[0-9a-f]{64}$/;
export const TEMPLATE = /^[^:\s]+:[^:\s]+:[^:\s]+$/;
export const LEDGER_STRING = /^[A-Za-z0-9._:\-#/ ]{1,255}$/;
const CONTRACT_ID = /^00[0-9a-f]{64}([0-9a-f]{2}){0,94}$/;
const CHOICE = /^[A-Za-z_][A-Za-z0-9_']*$/;

/** The command variants and their required fields (the spec's Command one-of). */
export const COMMANDS: Record<string, string[]> = {
  CreateCommand: ['templateId', 'createArguments'],
  ExerciseCommand: ['templateId', 'contractId', 'choice', 'choiceArgument'],
  CreateAndExerciseCommand: ['templateId', 'createArguments', 'choice', 'choiceArgument'],
  ExerciseByKeyCommand: ['templateId', 'contractKey', 'choice', 'choiceArgument'],
};

export type AddProblem = (path: string, message: string) => void;

export function checkCommandId(value: unknown, path: string, add: AddProblem, required = true): void {
  if (value === undefined && !required) return;
  if (typeof value !== 'string' || !LEDGER_STRING.test(value))
    add(path, value === undefined ? l10n.t('Missing: a command id.') : l10n.t('Not a valid ledger string: 1 to 255 of letters, digits and . _ : - # / space.'));
}

/** actAs (one or more) or readAs (any number): party ids. */
export function checkParties(r: Record<string, unknown>, key: 'actAs' | 'readAs', required: boolean, add: AddProblem): void {
  const v = r[key];
  if (v === undefined) {
    if (required) add(`$.${key}`, l10n.t('Missing: the acting parties (one or more party ids).'));
  } else if (!Array.isArray(v) || (required && v.length === 0)) add(`$.${key}`, l10n.t('Must be a list of party ids.'));
  else
    v.forEach((p, i) => {
      if (typeof p !== 'string' || !PARTY.test(p)) add(`$.${key}[${i}]`, l10n.t('Not a party id (name::1220…).'));
    });
}

/** The `commands` list: one or more, each exactly one variant with its required fields. */
export function checkCommandList(commands: unknown, add: AddProblem, strictIds = false): void {
  if (!Array.isArray(commands) || commands.length === 0)
    return void add('$.commands', l10n.t('Needs at least one command: {0}.', Object.keys(COMMANDS).join(', ')));
  commands.forEach((c: unknown, i): void => {
    const keys = typeof c === 'object' && c !== null && !Array.isArray(c) ? Object.keys(c) : [];
    if (keys.length !== 1 || !(keys[0] in COMMANDS))
      return void add(
        `$.commands[${i}]`,
        l10n.t(
          'Must be exactly one of {0}.',
          Object.keys(COMMANDS)
            .map((k) => `{ "${k}": … }`)
            .join(', '),
        ),
      );
    const kind = keys[0];
    const body = (c as Record<string, Record<string, unknown> | undefined>)[kind] ?? {};
    const at = `$.commands[${i}].${kind}`;
    for (const f of COMMANDS[kind]) if (body[f] === undefined) add(`${at}.${f}`, l10n.t('Missing: {0}.', f));
    if (body.templateId !== undefined && (typeof body.templateId !== 'string' || !TEMPLATE.test(body.templateId)))
      add(`${at}.templateId`, l10n.t('Must be <package id or #package-name>:<module>:<entity>.'));
    if (!strictIds) return;
    if (body.contractId !== undefined && (typeof body.contractId !== 'string' || !CONTRACT_ID.test(body.contractId)))
      add(`${at}.contractId`, l10n.t('Not a contract id (00 and hex digits).'));
    if (body.choice !== undefined && (typeof body.choice !== 'string' || !CHOICE.test(body.choice)))
      add(`${at}.choice`, l10n.t('Not a choice name (a Daml identifier such as Iou_Transfer).'));
    for (const f of ['createArguments', 'choiceArgument'])
      if (body[f] !== undefined && (typeof body[f] !== 'object' || body[f] === null || Array.isArray(body[f])))
        add(`${at}.${f}`, l10n.t('Must be a JSON object: the Daml record, one field per Daml field.'));
  });
}

/** A user id the node would refuse: the request's is not the token's. */
export function checkUserId(value: unknown, tokenUser: string | undefined, add: AddProblem): void {
  // An empty user id is the token's user (MatchUserId fills it in).
  if (value !== undefined && value !== '' && tokenUser && value !== tokenUser)
    add(
      '$.userId',
      l10n.t(
        'Is "{0}" but the node\'s token is for user "{1}": the node would refuse it (403).',
        typeof value === 'string' ? value : JSON.stringify(value),
        tokenUser,
      ),
    );
}
