// JsCantonError bodies as a participant sends them (docs/ledger-api.md#errors: JsSchema.scala, DecodedCantonError).
import { randomBytes } from 'node:crypto';
import type { JsCantonError } from './apiTypes';

export interface ErrorReply {
  status: number;
  contentType: string;
  body: string;
  /** A binary answer's bytes (a package's archive), sent instead of `body`. */
  bytes?: Buffer;
  headers?: Record<string, string>;
}

const GRPC = { INVALID_ARGUMENT: 3, NOT_FOUND: 5, PERMISSION_DENIED: 7, INTERNAL: 13, UNAUTHENTICATED: 16, ALREADY_EXISTS: 6 } as const;

export function cantonError(
  status: number,
  code: string,
  cause: string,
  errorCategory: number,
  grpcCodeValue: number,
  resources: [string, string][] = [],
  correlationId: string | null = null,
  /** The error's own metadata, which Canton adds to `context` (such as a pruning error's `earliest_offset`). */
  metadata: Record<string, string> = {},
): ErrorReply {
  const traceId = randomBytes(16).toString('hex');
  const body: JsCantonError = {
    code,
    cause,
    correlationId: correlationId as string,
    traceId,
    context: { participant: 'participant1', category: String(errorCategory), tid: traceId, definite_answer: 'false', ...metadata },
    resources,
    errorCategory,
    grpcCodeValue,
    retryInfo: null as unknown as string,
    definiteAnswer: null as unknown as boolean,
  };
  return json(status, body);
}

/** Categories 6 and 7 carry no details: the body is redacted to code "NA". */
export function redacted(status: 401 | 403, invalidToken = false): ErrorReply {
  return json(status, {
    code: 'NA',
    cause: 'A security-sensitive error has been received',
    correlationId: null,
    traceId: randomBytes(16).toString('hex'),
    context: invalidToken ? { ledger_api_error: 'invalid token' } : {},
    resources: [],
    errorCategory: -1,
    grpcCodeValue: status === 401 ? GRPC.UNAUTHENTICATED : GRPC.PERMISSION_DENIED,
    retryInfo: null,
    definiteAnswer: null,
  });
}

export const missingField = (field: string) =>
  cantonError(400, 'MISSING_FIELD', `The submitted command is missing a mandatory field: ${field}`, 8, GRPC.INVALID_ARGUMENT);

export const invalidField = (field: string, message: string) =>
  cantonError(400, 'INVALID_FIELD', `The submitted command has a field with invalid value: Invalid field ${field}: ${message}`, 8, GRPC.INVALID_ARGUMENT);

export const invalidArgument = (message: string, correlationId: string | null = null) =>
  cantonError(400, 'INVALID_ARGUMENT', `The submitted request has invalid arguments: ${message}`, 8, GRPC.INVALID_ARGUMENT, [], correlationId);

export const contractEventsNotFound = (contractId: string) =>
  cantonError(404, 'CONTRACT_EVENTS_NOT_FOUND', 'Contract events not found, or not visible.', 11, GRPC.NOT_FOUND, [['CONTRACT_ID', contractId]]);

export const updateNotFound = (updateId: string) =>
  cantonError(404, 'UPDATE_NOT_FOUND', 'Update not found, or not visible.', 11, GRPC.NOT_FOUND, [['UPDATE_ID', updateId]]);

/** What tapir's decode failure handler sends for a body it cannot decode. */
export const undecodableBody = (reason: string, jsonPath = '') => ({
  status: 400,
  contentType: 'text/plain; charset=UTF-8',
  body: `Invalid value for: body (${reason} at '${jsonPath}')`,
});

/** What the HTTP layer sends for a known path asked with another method. */
export const methodNotAllowed = (allowedMethod: string): ErrorReply => ({
  status: 405,
  contentType: 'text/plain; charset=UTF-8',
  body: `HTTP method not allowed, supported methods: ${allowedMethod}`,
});

/** An unexpected failure inside the node (LEDGER_API_INTERNAL_ERROR, category 4: redacted details). */
export const internalError = (): ErrorReply =>
  cantonError(500, 'LEDGER_API_INTERNAL_ERROR', 'An error occurred. Please contact the operator and inquire about the request', 4, GRPC.INTERNAL);

/** What the HTTP layer sends for a path no route matches. */
export const noSuchRoute = (): ErrorReply => ({
  status: 404,
  contentType: 'text/plain; charset=UTF-8',
  body: 'The requested resource could not be found.',
});

export function json(status: number, body: unknown): ErrorReply {
  return { status, contentType: 'application/json', body: JSON.stringify(body) };
}

/**
 * Before 3.6 the JSON layer writes a resource's key as `ErrorResource(KEY)` (JsSchema.scala,
 * `k.toString`); 3.6 writes `KEY`. Errors are built with the plain key and written as the version does.
 */
export function resourcesAsSent(reply: ErrorReply, version: string): ErrorReply {
  if (version === '3.6' || reply.status < 400 || !reply.contentType.startsWith('application/json') || !reply.body.includes('"resources":[[')) return reply;
  const body = JSON.parse(reply.body) as { resources?: unknown };
  if (!Array.isArray(body.resources)) return reply;
  body.resources = (body.resources as unknown[]).map((r: unknown) =>
    Array.isArray(r) && typeof r[0] === 'string' && !r[0].startsWith('ErrorResource(') ? [`ErrorResource(${r[0]})`, ...(r.slice(1) as unknown[])] : r,
  );
  return { ...reply, body: JSON.stringify(body) };
}
