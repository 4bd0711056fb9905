// Checks an execute request as a participant would before accepting it (NOTES a, b, f).
import type { ErrorReply } from './cantonErrorBodies';
import { invalidArgument, missingField, undecodableBody } from './cantonErrorBodies';
import type { FakeVersion } from './ledgerQueries';

const HASHING_SCHEMES: Record<FakeVersion, string[]> = {
  '3.4': ['HASHING_SCHEME_VERSION_UNSPECIFIED', 'HASHING_SCHEME_VERSION_V2'],
  '3.5': ['HASHING_SCHEME_VERSION_UNSPECIFIED', 'HASHING_SCHEME_VERSION_V2', 'HASHING_SCHEME_VERSION_V3'],
  '3.6': ['HASHING_SCHEME_VERSION_UNSPECIFIED', 'HASHING_SCHEME_VERSION_V2', 'HASHING_SCHEME_VERSION_V3', 'HASHING_SCHEME_VERSION_V4'],
};
const SIGNATURE_FORMATS = ['SIGNATURE_FORMAT_UNSPECIFIED', 'SIGNATURE_FORMAT_RAW', 'SIGNATURE_FORMAT_DER', 'SIGNATURE_FORMAT_CONCAT', 'SIGNATURE_FORMAT_SYMBOLIC'];
const SIGNING_ALGORITHMS = ['SIGNING_ALGORITHM_SPEC_UNSPECIFIED', 'SIGNING_ALGORITHM_SPEC_ED25519', 'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256', 'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_384', 'SIGNING_ALGORITHM_SPEC_ML_DSA_65'];
const LEDGER_STRING = /^[A-Za-z0-9._:\-#/ ]{1,255}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export interface ExecuteCheck {
  /** The single submitting party, when the request is acceptable so far. */
  party?: string;
  error?: ErrorReply;
}

export function checkExecuteRequest(body: Record<string, unknown>, version: FakeVersion): ExecuteCheck {
  const str = (v: unknown) => typeof v === 'string';
  // Decoding (tapir): wrong types, enums and base64 give text/plain 400s.
  if (body.preparedTransaction !== undefined && !str(body.preparedTransaction)) return { error: undecodableBody('Got value with wrong type, expecting string', 'preparedTransaction') };
  if (typeof body.preparedTransaction === 'string' && !BASE64.test(body.preparedTransaction)) return { error: undecodableBody('Invalid base64 string', 'preparedTransaction') };
  if (body.hashingSchemeVersion !== undefined && !HASHING_SCHEMES[version].includes(body.hashingSchemeVersion as string)) {
    return { error: undecodableBody(`Unknown enum value ${JSON.stringify(body.hashingSchemeVersion)}`, 'hashingSchemeVersion') };
  }
  const partySignatures = body.partySignatures as { signatures?: unknown } | undefined;
  const perParty = Array.isArray(partySignatures?.signatures) ? (partySignatures!.signatures as Record<string, unknown>[]) : undefined;
  for (const [i, p] of (perParty ?? []).entries()) {
    const sigs = Array.isArray(p.signatures) ? (p.signatures as Record<string, unknown>[]) : [];
    for (const [j, s] of sigs.entries()) {
      const at = `partySignatures.signatures[${i}].signatures[${j}]`;
      if (!SIGNATURE_FORMATS.includes(s.format as string)) return { error: undecodableBody(`Unknown enum value ${JSON.stringify(s.format)}`, `${at}.format`) };
      if (!SIGNING_ALGORITHMS.includes(s.signingAlgorithmSpec as string)) return { error: undecodableBody(`Unknown enum value ${JSON.stringify(s.signingAlgorithmSpec)}`, `${at}.signingAlgorithmSpec`) };
      if (!str(s.signature) || !BASE64.test(s.signature as string)) return { error: undecodableBody('Invalid base64 string', `${at}.signature`) };
    }
  }
  // Validation (ledger-api-core): missing fields and semantic checks give JsCantonErrors.
  if (!body.preparedTransaction) return { error: missingField('prepared_transaction') };
  if (!body.submissionId) return { error: missingField('submission_id') };
  if (!LEDGER_STRING.test(body.submissionId as string)) return { error: invalidArgument(`Invalid field submission_id: non expected character in "${String(body.submissionId).slice(0, 64)}"`) };
  if (!perParty || perParty.length === 0) return { error: missingField('party_signatures') };
  if (perParty.length > 1) return { error: invalidArgument('Only single-party submissions are supported: party_signatures has signatures of more than one party', body.submissionId as string) };
  const only = perParty[0]!;
  if (!str(only.party) || !(only.party as string).includes('::')) return { error: invalidArgument(`Invalid field party: "${String(only.party)}" is not a party id`) };
  if (!Array.isArray(only.signatures) || only.signatures.length === 0) return { error: invalidArgument(`No signatures for party ${String(only.party)}`) };
  for (const s of only.signatures as Record<string, unknown>[]) {
    if (!s.signedBy) return { error: missingField('signed_by') };
  }
  const bytes = Buffer.from(body.preparedTransaction as string, 'base64');
  // A serialized PreparedTransaction starts with field 1 (transaction), wire type 2.
  if (bytes.length < 2 || bytes[0] !== 0x0a) return { error: invalidArgument('Cannot parse prepared_transaction', body.submissionId as string) };
  return { party: only.party as string };
}
