// Explicit disclosure on the fake node: the `disclosedContracts` of commands checked as Canton's
// ValidateDisclosedContracts does (the blob required; the blob must decode; a contract id or
// template id given must be the blob's; a synchronizer id given must be one), and a disclosed
// contract seen by the submission as if its parties read it (docs/fake-node.md, the row of `disclosedContracts`).
// The fake's blobs are its own (base64 of text that starts `CgMyLjES`): any other does not decode.
// No `vscode` import.
import { invalidArgument, invalidField, missingField, type ErrorReply } from './cantonErrorBodies';

type Args = Record<string, unknown>;
const SYNCHRONIZER = /^[A-Za-z0-9_\- :]+::1220[0-9a-f]{64}$/;
const CONTRACT = /^00[0-9a-f]{64}([0-9a-f]{2}){0,94}$/;

const isObject = (v: unknown): v is Args => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** Whether the blob is one the fake node could have written. */
const decodes = (blob: string) => /^[A-Za-z0-9+/]+=*$/.test(blob) && Buffer.from(blob, 'base64').toString('utf8').startsWith('CgMyLjES');

/** The first disclosed contract Canton would refuse, in its order; undefined when all pass. */
export function checkDisclosedContracts(
  find: (contractId: string) => { templateId: string; createdEventBlob?: string } | undefined,
  list: unknown,
): ErrorReply | undefined {
  for (const raw of Array.isArray(list) ? list : []) {
    const d = isObject(raw) ? raw : {};
    const blob = text(d.createdEventBlob);
    if (!blob) return missingField('DisclosedContract.createdEventBlob');
    const contractId = text(d.contractId);
    if (contractId && !CONTRACT.test(contractId)) return invalidField('DisclosedContract.contract_id', `cannot parse ContractId "${contractId.slice(0, 80)}"`);
    const synchronizerId = text(d.synchronizerId);
    if (synchronizerId && !SYNCHRONIZER.test(synchronizerId))
      return invalidField('DisclosedContract.synchronizer_id', `Invalid unique identifier \`${synchronizerId.slice(0, 80)}\``);
    if (!decodes(blob)) return invalidArgument('Unable to decode disclosed contract event payload: DecodeError(Invalid protobuf)');
    const known = contractId ? find(contractId) : undefined;
    if (contractId && known?.createdEventBlob !== blob)
      return invalidArgument(
        `Mismatch between DisclosedContract.contract_id (${contractId}) and contract_id from decoded DisclosedContract.created_event_blob`,
      );
    const templateId = text(d.templateId);
    if (known && templateId && templateId !== known.templateId)
      return invalidArgument(
        `Mismatch between DisclosedContract.template_id (${templateId}) and template_id from decoded DisclosedContract.created_event_blob (${known.templateId})`,
      );
  }
  return undefined;
}

/** The blobs disclosed with the commands: a contract whose blob is among them is seen by the submission. */
export function disclosedBlobs(list: unknown): Set<string> {
  return new Set((Array.isArray(list) ? list : []).map((d) => (isObject(d) ? text(d.createdEventBlob) : '')).filter((b) => b !== ''));
}
