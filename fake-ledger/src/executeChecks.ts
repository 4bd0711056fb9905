// Checks an execute request as a participant does. The schema of the spec is checked before
// (spec/apiSchemas.ts); here: what the JSON layer decodes beyond it (base64, the proto enums the
// spec leaves as strings) and, after the rights check, what ledger-api-core validates.
import type { ErrorReply } from './cantonErrorBodies';
import { invalidArgument, missingField, undecodableBody } from './cantonErrorBodies';

const SIGNATURE_FORMATS = [
  'SIGNATURE_FORMAT_UNSPECIFIED',
  'SIGNATURE_FORMAT_RAW',
  'SIGNATURE_FORMAT_DER',
  'SIGNATURE_FORMAT_CONCAT',
  'SIGNATURE_FORMAT_SYMBOLIC',
];
const SIGNING_ALGORITHMS = [
  'SIGNING_ALGORITHM_SPEC_UNSPECIFIED',
  'SIGNING_ALGORITHM_SPEC_ED25519',
  'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256',
  'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_384',
  'SIGNING_ALGORITHM_SPEC_ML_DSA_65',
];
const LEDGER_STRING = /^[A-Za-z0-9._:\-#/ ]{1,255}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

// The messages are scalapb's, decoded with CirceRelaxedCodec: an absent list is empty, an absent
// text is "", an absent enum is an object its string decoder refuses.
interface SignatureBody {
  format?: string;
  signature?: string;
  signedBy?: string;
  signingAlgorithmSpec?: string;
}
interface PartySignaturesBody {
  signatures?: { party?: string; signatures?: SignatureBody[] }[];
}
const ENUM_DEFAULT_REFUSED = `Got value '{"Unrecognized":{"unrecognizedValue":0}}' with wrong type, expecting string`;
const enumRefused = (value: string | undefined) => (value === undefined ? ENUM_DEFAULT_REFUSED : `Unknown enum value ${JSON.stringify(value)}`);

export interface ExecuteCheck {
  /** The single submitting party, when the request is acceptable. */
  party?: string;
  error?: ErrorReply;
}

/** Decoding (the JSON layer): bad base64 and unknown proto enum values give text/plain 400s. */
export function decodeExecuteRequest(body: Record<string, unknown>): ErrorReply | undefined {
  if (typeof body.preparedTransaction === 'string' && !BASE64.test(body.preparedTransaction))
    return undecodableBody('Invalid base64 string', 'preparedTransaction');
  const perParty = (body.partySignatures as PartySignaturesBody | undefined)?.signatures ?? [];
  for (const [i, p] of perParty.entries()) {
    for (const [j, s] of (p.signatures ?? []).entries()) {
      const at = `partySignatures.signatures[${i}].signatures[${j}]`;
      if (!SIGNATURE_FORMATS.includes(s.format ?? '')) return undecodableBody(enumRefused(s.format), `${at}.format`);
      if (!SIGNING_ALGORITHMS.includes(s.signingAlgorithmSpec ?? '')) return undecodableBody(enumRefused(s.signingAlgorithmSpec), `${at}.signingAlgorithmSpec`);
      if (!BASE64.test(s.signature ?? '')) return undecodableBody('Invalid base64 string', `${at}.signature`);
    }
  }
  return undefined;
}

/** Validation (ledger-api-core), after decoding and the rights check: JsCantonErrors. */
export function judgeExecuteRequest(body: Record<string, unknown>): ExecuteCheck {
  if (!body.preparedTransaction) return { error: missingField('prepared_transaction') };
  if (!body.submissionId) return { error: missingField('submission_id') };
  const submissionId = body.submissionId as string;
  if (!LEDGER_STRING.test(submissionId))
    return { error: invalidArgument(`Invalid field submission_id: non expected character in "${submissionId.slice(0, 64)}"`) };
  if (body.hashingSchemeVersion === 'HASHING_SCHEME_VERSION_UNSPECIFIED') return { error: missingField('hashing_scheme_version') };
  const perParty = (body.partySignatures as PartySignaturesBody).signatures ?? [];
  if (perParty.length === 0) return { error: missingField('party_signatures') };
  if (perParty.length > 1)
    return { error: invalidArgument('Only single-party submissions are supported: party_signatures has signatures of more than one party', submissionId) };
  const only = { party: perParty[0].party ?? '', signatures: perParty[0].signatures ?? [] };
  if (!only.party.includes('::')) return { error: invalidArgument(`Invalid field party: "${only.party.slice(0, 80)}" is not a party id`) };
  if (only.signatures.length === 0) return { error: invalidArgument(`No signatures for party ${only.party.slice(0, 80)}`) };
  if (only.signatures.some((s) => !s.signedBy)) return { error: missingField('signed_by') };
  const bytes = Buffer.from(body.preparedTransaction as string, 'base64');
  // A serialized PreparedTransaction starts with field 1 (transaction), wire type 2.
  if (bytes.length < 2 || bytes[0] !== 0x0a) return { error: invalidArgument('Cannot parse prepared_transaction', submissionId) };
  return { party: only.party };
}
