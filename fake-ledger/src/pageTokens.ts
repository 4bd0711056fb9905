// Page tokens as the fake gives them (opaque to clients, as Canton's are), and what Canton checks of
// the request that brings one back: AcsPageToken (3.5+) binds a token to the request that got it.
import { createHash } from 'node:crypto';
import { cantonError, invalidArgument, type ErrorReply } from './cantonErrorBodies';

export function encodeToken<T>(t: T): string {
  return Buffer.from(JSON.stringify(t), 'utf8').toString('base64url');
}

export function decodeToken<T>(s: string): T | undefined {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    return typeof v === 'object' && v !== null ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}

/** An update format's digest (the updates page token). */
export const formatHash = (format: unknown) => createHash('sha256').update(JSON.stringify(format)).digest('hex').slice(0, 16);

/**
 * Canton's request checksum (AcsPageToken.calcRequestChecksum): the `activeAtOffset` as the request
 * gives it, absent or not, and the event format as a protobuf message, whose map keys have no order
 * and whose default values (false, "", empty lists) are not written.
 */
export const pageRequestHash = (b: Record<string, unknown>) =>
  createHash('sha256')
    .update(JSON.stringify([b.activeAtOffset ?? null, protoCanonical(b.eventFormat)]))
    .digest('hex')
    .slice(0, 16);

function protoCanonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(protoCanonical);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const x = (v as Record<string, unknown>)[k];
    if (x === null || x === undefined || x === false || x === '' || (Array.isArray(x) && x.length === 0)) continue;
    out[k] = protoCanonical(x);
  }
  return out;
}

/** RequestValidationErrors.InvalidAcsPageToken, with AcsPageToken.decodeAndValidate's message. */
export const invalidAcsPageToken = (message: string) =>
  cantonError(
    400,
    'INVALID_ACS_PAGE_TOKEN',
    'The submitted command contains an invalid page token. Tokens used in ACS requests must be taken from a valid GetActiveContractsPageResponse and used with the same EventFormat settings, with the same Canton participant running the same Canton version. ' +
      message,
    8,
    3,
  );

/** Canton's updates page checksum (UpdatesPageToken.requestChecksum): the bounds, page size and format as given. */
export const updatesRequestHash = (b: Record<string, unknown>) =>
  createHash('sha256')
    .update(
      JSON.stringify([
        b.beginOffsetExclusive ?? null,
        b.endOffsetInclusive ?? null,
        b.maxPageSize ?? null,
        protoCanonical(b.updateFormat),
        b.descendingOrder === true,
      ]),
    )
    .digest('hex')
    .slice(0, 16);

/** RequestValidationErrors.InvalidUpdatesPageToken. */
export const invalidUpdatesPageToken = (message: string) =>
  cantonError(
    400,
    'INVALID_UPDATES_PAGE_TOKEN',
    'The submitted command contains an invalid page token. Tokens used in GetUpdatesPage requests must be taken from a valid GetUpdatesPageResponse and used with the same EventFormat settings, the same begin and end with the same Canton participant running the same Canton version. ' +
      message,
    8,
    3,
  );

/** FieldValidator.validatePageSize: a page size given must be positive and at most the node's maximum. */
export function pageSizeRefusal(asked: unknown, max: number): ErrorReply | undefined {
  if (typeof asked !== 'number') return undefined;
  if (asked <= 0) return invalidArgument(`Requested page size must be positive, but got ${asked}`);
  if (asked > max) return invalidArgument(`Requested page size must not exceed ${max}, but got ${asked}`);
  return undefined;
}
