// Checks an `*.execute.json` before anything is sent: the shape of JsExecuteSubmissionRequest and
// the enums of docs/ledger-api.md#execute, with the JSON path of each problem.
import type { JsExecuteSubmissionRequest } from '../ledger/apiTypes';
import * as l10n from '../l10n/l10n';
import { DEDUPLICATION_DEFAULT, EXECUTE_DECODER_FIELDS, missingFields } from './requiredFields';

export interface RequestProblem {
  path: string;
  message: string;
  /** Top-level fields whose addition fixes it (a quick fix offers them). */
  add?: Record<string, unknown>;
}

export const HASHING_SCHEME_VERSIONS = ['HASHING_SCHEME_VERSION_UNSPECIFIED', 'HASHING_SCHEME_VERSION_V2', 'HASHING_SCHEME_VERSION_V3'] as const;
export const SIGNATURE_FORMATS = [
  'SIGNATURE_FORMAT_UNSPECIFIED',
  'SIGNATURE_FORMAT_RAW',
  'SIGNATURE_FORMAT_DER',
  'SIGNATURE_FORMAT_CONCAT',
  'SIGNATURE_FORMAT_SYMBOLIC',
] as const;
export const SIGNING_ALGORITHMS = [
  'SIGNING_ALGORITHM_SPEC_UNSPECIFIED',
  'SIGNING_ALGORITHM_SPEC_ED25519',
  'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256',
  'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_384',
  'SIGNING_ALGORITHM_SPEC_ML_DSA_65',
] as const;
const LEDGER_STRING = /^[A-Za-z0-9._:\-#/ ]{1,255}$/;
const USER_ID = /^[a-zA-Z0-9@^$.!`\-#+'~_|:()]{1,128}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PARTY = /^[A-Za-z0-9_\- ]+(?::[A-Za-z0-9_\- ]+)*::1220[0-9a-f]{64}$/;
const FINGERPRINT = /^1220[0-9a-f]{64}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/** Canton Lens's own field: the hash the signatures cover, from the prepare response. Never sent. */
export const HASH_FIELD = 'preparedTransactionHash';

export interface CheckedRequest {
  /** What would be sent: the request without Canton Lens's own fields. */
  request?: JsExecuteSubmissionRequest;
  /** The hash the file says the signatures cover, if it says. */
  claimedHash?: string;
  party?: string;
  /** The submitting party's entry has no signature yet (allowed with `allowUnsigned`: a review before signing). */
  unsigned?: boolean;
  problems: RequestProblem[];
}

/** `allowUnsigned`: an empty signature list of the submitting party is not a problem (the review before signing shows it). */
export function checkExecuteRequest(text: string, tokenUser?: string, options: { allowUnsigned?: boolean } = {}): CheckedRequest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problems: [{ path: '$', message: l10n.t('Not valid JSON: {0}', (e as Error).message) }] };
  }
  const problems: RequestProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problems: [{ path: '$', message: l10n.t('The request must be a JSON object (JsExecuteSubmissionRequest).') }] };
  }
  const r = value as Record<string, unknown>;
  const str = (path: string, v: unknown, what: string): v is string => {
    if (typeof v === 'string' && v !== '') return true;
    add(path, v === undefined || v === '' ? l10n.t('Missing: {0}.', what) : l10n.t('Must be a string: {0}.', what));
    return false;
  };
  const oneOf = (path: string, v: unknown, allowed: readonly string[]) => {
    if (typeof v !== 'string' || !allowed.includes(v))
      add(
        path,
        v === undefined ? l10n.t('Must be one of {0}.', allowed.join(', ')) : l10n.t('Must be one of {0}, not {1}.', allowed.join(', '), JSON.stringify(v)),
      );
  };

  if (str('$.preparedTransaction', r.preparedTransaction, l10n.t('the base64 prepared transaction from /v2/interactive-submission/prepare'))) {
    if (!BASE64.test(r.preparedTransaction)) add('$.preparedTransaction', l10n.t('Not valid base64 (standard alphabet, with padding).'));
  }
  if (str('$.submissionId', r.submissionId, l10n.t('a submission id (a UUID is recommended)')) && !LEDGER_STRING.test(r.submissionId)) {
    add('$.submissionId', l10n.t('Not a valid ledger string: 1 to 255 of letters, digits and . _ : - # / space.'));
  }
  if (r.hashingSchemeVersion === undefined)
    add('$.hashingSchemeVersion', l10n.t('Missing: the hashing scheme of the prepare response ({0}).', HASHING_SCHEME_VERSIONS.join(', ')));
  else oneOf('$.hashingSchemeVersion', r.hashingSchemeVersion, HASHING_SCHEME_VERSIONS);
  if (r.userId !== undefined) {
    if (typeof r.userId !== 'string' || !USER_ID.test(r.userId)) add('$.userId', l10n.t('Not a valid user id.'));
    else if (tokenUser && r.userId !== tokenUser)
      add('$.userId', l10n.t('Is "{0}" but the node\'s token is for user "{1}": the node would refuse it (403).', r.userId, tokenUser));
  }

  let party: string | undefined;
  let unsigned = false;
  const ps = r.partySignatures as { signatures?: unknown } | undefined;
  if (typeof ps !== 'object' || ps === null) add('$.partySignatures', l10n.t('Missing: the parties\' signatures ({ "signatures": [ … ] }).'));
  else if (!Array.isArray(ps.signatures) || ps.signatures.length === 0)
    add('$.partySignatures.signatures', l10n.t('Needs the signatures of the submitting party.'));
  else {
    if (ps.signatures.length > 1)
      add('$.partySignatures.signatures', l10n.t('Has {0} parties; only single-party submissions are supported.', ps.signatures.length));
    ps.signatures.forEach((entry: unknown, i) => {
      const at = `$.partySignatures.signatures[${i}]`;
      const e = (entry ?? {}) as Record<string, unknown>;
      if (str(`${at}.party`, e.party, l10n.t('the submitting party id')) && !PARTY.test(e.party)) add(`${at}.party`, l10n.t('Not a party id (name::1220…).'));
      else if (i === 0) party = e.party as string;
      if (i === 0 && options.allowUnsigned && Array.isArray(e.signatures) && e.signatures.length === 0) {
        unsigned = true;
        return;
      }
      if (!Array.isArray(e.signatures) || e.signatures.length === 0) {
        add(`${at}.signatures`, l10n.t('Needs at least one signature.'));
        return;
      }
      e.signatures.forEach((sig: unknown, j) => {
        const sat = `${at}.signatures[${j}]`;
        const s = (sig ?? {}) as Record<string, unknown>;
        oneOf(`${sat}.format`, s.format, SIGNATURE_FORMATS);
        oneOf(`${sat}.signingAlgorithmSpec`, s.signingAlgorithmSpec, SIGNING_ALGORITHMS);
        if (str(`${sat}.signature`, s.signature, l10n.t('the base64 signature')) && !BASE64.test(s.signature))
          add(`${sat}.signature`, l10n.t('Not valid base64.'));
        if (str(`${sat}.signedBy`, s.signedBy, l10n.t('the fingerprint of the signing key (1220…)')) && !FINGERPRINT.test(s.signedBy))
          add(`${sat}.signedBy`, l10n.t('Not a key fingerprint: 1220 followed by 64 lower-case hex digits.'));
      });
    });
  }

  if (r.deduplicationPeriod === undefined)
    problems.push({
      path: '$.deduplicationPeriod',
      message: l10n.t(
        'Missing. Every Canton node requires it in this request (the spec does not say so) and refuses the file without it; {"Empty": {}} means the node\'s maximum.',
      ),
      add: missingFields(r, EXECUTE_DECODER_FIELDS),
    });
  else
    checkOneOf(
      '$.deduplicationPeriod',
      r.deduplicationPeriod,
      {
        DeduplicationDuration: (v) => durationProblem(v),
        DeduplicationOffset: (v) => (Number.isInteger(v) && (v as number) >= 0 ? undefined : l10n.t('an offset: a non-negative integer')),
        Empty: () => undefined,
      },
      add,
    );
  if (r.minLedgerTime !== undefined) {
    const time = (r.minLedgerTime as { time?: unknown })?.time;
    if (time === undefined) add('$.minLedgerTime.time', 'Missing: { "MinLedgerTimeAbs" | "MinLedgerTimeRel" | "Empty": … }.');
    else
      checkOneOf(
        '$.minLedgerTime.time',
        time,
        {
          MinLedgerTimeAbs: (v) => (typeof v === 'string' && INSTANT.test(v) ? undefined : l10n.t('an ISO instant in UTC, e.g. 2026-11-21T10:00:00Z')),
          MinLedgerTimeRel: (v) => durationProblem(v),
          Empty: () => undefined,
        },
        add,
      );
  }

  let claimedHash: string | undefined;
  if (r[HASH_FIELD] !== undefined) {
    if (typeof r[HASH_FIELD] !== 'string' || !BASE64.test(r[HASH_FIELD]) || Buffer.from(r[HASH_FIELD], 'base64').length !== 32) {
      add(`$.${HASH_FIELD}`, l10n.t('Must be the base64 of a 32-byte hash, as the prepare response gives it.'));
    } else claimedHash = r[HASH_FIELD];
  }
  const known = new Set([
    'preparedTransaction',
    'partySignatures',
    'deduplicationPeriod',
    'submissionId',
    'userId',
    'hashingSchemeVersion',
    'minLedgerTime',
    HASH_FIELD,
  ]);
  for (const k of Object.keys(r)) if (!known.has(k)) add(`$.${k}`, l10n.t('Unknown field: a node ignores it; is it misspelled?'));

  const { [HASH_FIELD]: _hash, ...request } = r;
  void _hash;
  return {
    request: problems.length === 0 ? (request as unknown as JsExecuteSubmissionRequest) : undefined,
    claimedHash,
    party,
    ...(unsigned ? { unsigned } : {}),
    problems,
  };
}

function durationProblem(v: unknown): string | undefined {
  const d = v as { seconds?: unknown; nanos?: unknown };
  if (typeof d !== 'object' || d === null || !Number.isInteger(d.seconds) || (d.nanos !== undefined && !Number.isInteger(d.nanos))) {
    return l10n.t('a duration { "seconds": N, "nanos": N }');
  }
  return undefined;
}

/** A one-key wrapper `{ "Kind": { "value": … } }` (or `{ "Empty": {} }`). */
function checkOneOf(path: string, v: unknown, kinds: Record<string, (value: unknown) => string | undefined>, add: (p: string, m: string) => void): void {
  const keys = typeof v === 'object' && v !== null ? Object.keys(v) : [];
  if (keys.length !== 1 || !(keys[0] in kinds)) {
    add(
      path,
      l10n.t(
        'Must be exactly one of {0}.',
        Object.keys(kinds)
          .map((k) => `{ "${k}": … }`)
          .join(', '),
      ),
    );
    return;
  }
  const kind = keys[0];
  if (kind === 'Empty') return;
  const inner = (v as Record<string, { value?: unknown }>)[kind];
  const problem = kinds[kind](inner?.value);
  if (problem) add(`${path}.${kind}.value`, l10n.t('Must be {0}.', problem));
}

/** A new request to fill in, with a fresh submission id. */
export function executeRequestTemplate(submissionId: string): string {
  return `${JSON.stringify(
    {
      preparedTransaction: '<base64 from /v2/interactive-submission/prepare: preparedTransaction>',
      [HASH_FIELD]: '<base64 from the prepare response: preparedTransactionHash (Canton Lens checks it; never sent)>',
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      partySignatures: {
        signatures: [
          {
            party: '<party id: name::1220…>',
            signatures: [
              {
                format: 'SIGNATURE_FORMAT_CONCAT',
                signature: '<base64 signature of the hash>',
                signedBy: '<key fingerprint: 1220…>',
                signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
              },
            ],
          },
        ],
      },
      submissionId,
      deduplicationPeriod: DEDUPLICATION_DEFAULT,
    },
    null,
    2,
  )}\n`;
}

/** The path a new request is written to: always one `.execute.json`, which the JSON schema applies to. */
export function requestFilePath(chosen: string): string {
  return `${chosen.replace(/(\.execute)?(\.json)?$/i, '').replace(/(\.execute\.json)+$/i, '')}.execute.json`;
}
