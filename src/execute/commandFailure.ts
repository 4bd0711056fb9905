// Why a command failed, from what the node said: a JsCantonError (the answer to a submission) or
// a failed completion's status (google.rpc.Status; its ErrorInfo detail carries the error's
// context). Reads the Canton error code, category, definite answer and retry hint, and the Daml
// places the error names: `exercise_trace` lines of a DAML_FAILURE, template, choice and contract
// ids in the cause. The meaning and next step of each code, with its public source, are in
// commandErrorCodes.ts. Pure: no `vscode` import.
import type { JsCantonError } from '../ledger/apiTypes';
import { resourceKeyOf } from '../ledger/ledgerApiError';
import { describeCode, type CodeDescription } from './commandErrorCodes';

/** What the node said, from either source. */
export interface FailureFacts {
  code?: string;
  cause: string;
  category?: number;
  definiteAnswer?: boolean;
  retryInfo?: string;
  correlationId?: string;
  context: Record<string, string>;
  resources: [string, string][];
  /** The gRPC status code of a completion. */
  grpcCode?: number;
}

/** A place in Daml the error names. */
export interface DamlPlace {
  /** `<package id or #name>:<Module>:<Entity>`, or `<Module>:<Entity>` when the package is not named. */
  templateId: string;
  choice?: string;
  /** A contract id or its prefix, as the error wrote it. */
  contractId?: string;
  /** The node of the transaction (an exercise trace's `#n`). */
  nodeId?: number;
  /** The source location `Module:line:column` the error gives, if any. */
  location?: { module: string; line: number; column?: number };
  /** How the error wrote it. */
  text: string;
}

export interface FailureExplanation extends CodeDescription {
  facts: FailureFacts;
  /** `definiteAnswer`, else judged from the category. */
  definite?: boolean;
  /** A DAML_FAILURE's `error_id` (UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed). */
  errorId?: string;
  /** The user's message in an assertion or a failure (the part after the error id). */
  userMessage?: string;
  places: DamlPlace[];
}

const isStringPair = (r: unknown): r is [string, string] => Array.isArray(r) && r.length === 2 && r.every((x) => typeof x === 'string');

export function factsFromCantonError(c: JsCantonError): FailureFacts {
  const context: Record<string, string> = {};
  for (const [k, v] of Object.entries((c.context as Record<string, unknown> | null | undefined) ?? {})) if (typeof v === 'string') context[k] = v;
  return {
    code: c.code,
    cause: c.cause ?? '',
    category: typeof c.errorCategory === 'number' ? c.errorCategory : undefined,
    definiteAnswer: typeof c.definiteAnswer === 'boolean' ? c.definiteAnswer : undefined,
    retryInfo: typeof c.retryInfo === 'string' ? c.retryInfo : undefined,
    correlationId: typeof c.correlationId === 'string' ? c.correlationId : undefined,
    context,
    resources: Array.isArray(c.resources) ? (c.resources as unknown[]).filter(isStringPair).map(([k, v]): [string, string] => [resourceKeyOf(k), v]) : [],
    grpcCode: typeof c.grpcCodeValue === 'number' ? c.grpcCodeValue : undefined,
  };
}

// --- google.rpc.Status of a completion -------------------------------------------------------

interface ProtoAnyJson {
  typeUrl?: unknown;
  value?: unknown;
}

/** Reads protobuf length-delimited and varint fields; enough for ErrorInfo and RetryInfo. */
function protoFields(bytes: Uint8Array): { field: number; wire: number; value: Uint8Array | number }[] {
  const out: { field: number; wire: number; value: Uint8Array | number }[] = [];
  let i = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (i >= bytes.length || shift > 49) throw new Error('truncated varint');
      const b = bytes[i++];
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
  };
  while (i < bytes.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === 0) out.push({ field, wire, value: varint() });
    else if (wire === 2) {
      const n = varint();
      if (i + n > bytes.length) throw new Error('truncated field');
      out.push({ field, wire, value: bytes.subarray(i, i + n) });
      i += n;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw new Error(`wire type ${wire}`);
  }
  return out;
}

const utf8 = (b: Uint8Array | number) => (typeof b === 'number' ? String(b) : Buffer.from(b).toString('utf8'));

/** google.rpc.ErrorInfo: reason (1), domain (2), metadata (3, map<string,string>). */
export function decodeErrorInfo(base64: string): { reason: string; metadata: Record<string, string> } | undefined {
  try {
    const metadata: Record<string, string> = {};
    let reason = '';
    for (const f of protoFields(Buffer.from(base64, 'base64'))) {
      if (f.field === 1 && f.wire === 2) reason = utf8(f.value);
      if (f.field === 3 && f.wire === 2 && typeof f.value !== 'number') {
        const entry = protoFields(f.value);
        const k = entry.find((e) => e.field === 1);
        const v = entry.find((e) => e.field === 2);
        if (k) metadata[utf8(k.value)] = v ? utf8(v.value) : '';
      }
    }
    return { reason, metadata };
  } catch {
    return undefined;
  }
}

/** `CODE(category,correlation): cause`, the message format of Canton's errors. */
const CODE_MESSAGE = /^([A-Z][A-Z0-9_]+)\((\d+),([^)]*)\): ?([\s\S]*)$/;

/** A failed completion's status: the code and cause from its message, the context from its ErrorInfo detail. */
export function factsFromStatus(status: { code?: unknown; message?: unknown; details?: unknown } | undefined): FailureFacts {
  const message = typeof status?.message === 'string' ? status.message : '';
  const m = CODE_MESSAGE.exec(message);
  const facts: FailureFacts = {
    code: m?.[1],
    cause: m ? m[4] : message,
    category: m ? Number(m[2]) : undefined,
    correlationId: m?.[3] || undefined,
    context: {},
    resources: [],
    grpcCode: typeof status?.code === 'number' ? status.code : undefined,
  };
  for (const d of Array.isArray(status?.details) ? (status.details as ProtoAnyJson[]) : []) {
    if (typeof d?.typeUrl !== 'string' || typeof d.value !== 'string') continue;
    if (d.typeUrl.endsWith('google.rpc.ErrorInfo')) {
      const info = decodeErrorInfo(d.value);
      if (!info) continue;
      facts.code ??= info.reason || undefined;
      for (const [k, v] of Object.entries(info.metadata)) {
        if (k === 'category') facts.category ??= Number(v);
        else if (k === 'definite_answer') facts.definiteAnswer = v === 'true';
        else facts.context[k] = v;
      }
    }
  }
  return facts;
}

// --- Daml places -------------------------------------------------------------------------------

const PACKAGE = String.raw`(?:[0-9a-f]{64}|#[A-Za-z0-9_\-.]+)`;
const MODULE = String.raw`[A-Z][A-Za-z0-9_']*(?:\.[A-Z][A-Za-z0-9_']*)*`;
const NAME = String.raw`[A-Za-z_][A-Za-z0-9_']*`;
/** A trace writes the first 8 hex digits of a package id. */
const TRACE_PACKAGE = String.raw`[0-9a-f]{8,64}|#[A-Za-z0-9_\-.]+`;
/**
 * One line of an exercise trace, innermost first: "in choice <pkg8>:<Module>:<Template>:<Choice> on
 * contract <cid10> (#n)", ending with the command ("in exercise command …", "in create command …").
 */
const TRACE_LINE = new RegExp(
  String.raw`in (choice|exercise command|create-and-exercise command|exercise-by-key command|create command) (${TRACE_PACKAGE}):(${MODULE}):(${NAME})(?::(${NAME}))?(?: on contract ([0-9a-f]{8,}))?(?: \(#(\d+)\))?`,
  'g',
);
/** A qualified template id in a cause. */
const TEMPLATE_ID = new RegExp(String.raw`(${PACKAGE}):(${MODULE}):(${NAME})`, 'g');
/** A source location the engine writes: `Module:line:column`. */
const LOCATION = new RegExp(String.raw`\b(${MODULE}):(\d+):(\d+)\b`);
const CONTRACT = /\b00[0-9a-f]{64,}\b/;

export function damlPlaces(facts: FailureFacts): DamlPlace[] {
  const places: DamlPlace[] = [];
  const seen = new Set<string>();
  const push = (p: DamlPlace) => {
    const key = `${p.templateId}|${p.choice ?? ''}|${p.contractId ?? ''}|${p.nodeId ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    places.push(p);
  };
  const trace = facts.context.exercise_trace ?? facts.context.exerciseTrace ?? '';
  for (const m of trace.matchAll(TRACE_LINE)) {
    // The command line repeats the outermost choice: a place of its own only when no choice line came first.
    if (m[1].endsWith('command') && places.length > 0) continue;
    push({ templateId: `${m[2]}:${m[3]}:${m[4]}`, choice: m[5], contractId: m[6], nodeId: m[7] === undefined ? undefined : Number(m[7]), text: m[0].trim() });
  }
  const location = LOCATION.exec(`${facts.context.location ?? ''} ${facts.cause}`);
  if (location && places.length > 0) places[places.length - 1].location = { module: location[1], line: Number(location[2]), column: Number(location[3]) };
  if (places.length === 0) {
    const contract = CONTRACT.exec(facts.cause)?.[0] ?? facts.resources.find(([k]) => k === 'CONTRACT_ID')?.[1];
    for (const m of `${facts.cause} ${Object.values(facts.context).join(' ')}`.matchAll(TEMPLATE_ID)) {
      const choice = new RegExp(String.raw`choice (${NAME})`).exec(facts.cause)?.[1];
      push({ templateId: m[0], choice, contractId: contract, text: m[0] });
    }
    if (places.length === 0 && contract) push({ templateId: '', contractId: contract, text: contract });
    if (location && places.length > 0) places[0].location = { module: location[1], line: Number(location[2]), column: Number(location[3]) };
  }
  return places;
}

const DEFINITE_CATEGORIES = new Set([6, 7, 8, 9, 10, 11, 12, 14]);

export function explainFailure(facts: FailureFacts): FailureExplanation {
  const errorId = facts.context.error_id ?? facts.context.errorId;
  // Through gRPC, `definiteAnswer` is null and the flag is in the context. Canton sends "false" for
  // errors raised before anything was submitted (validation, interpretation): their category
  // says the command was refused, as submissionOutcome.ts judges it.
  const flagged = facts.definiteAnswer === true || facts.context.definite_answer === 'true';
  // "Interpretation error: Error: User failure: <error id> (error category <n>): <message>"
  const userMessage = /User failure: \S+ \(error category \d+\): ([\s\S]*)$/.exec(facts.cause)?.[1] ?? /User abort: ([\s\S]*)$/.exec(facts.cause)?.[1];
  return {
    ...describeCode(facts.code, facts.category),
    facts,
    definite: flagged || (facts.category === undefined ? undefined : DEFINITE_CATEGORIES.has(facts.category)),
    errorId,
    userMessage: userMessage?.trim() || undefined,
    places: damlPlaces(facts),
  };
}
