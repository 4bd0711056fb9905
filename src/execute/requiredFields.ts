// The top-level fields a request file lacks that every Canton node's decoder requires (its case
// class has no default for them, whatever the OpenAPI `required` list says; docs/fake-node.md), and
// the edit that adds them, keeping the file's layout. Pure: the quick fix applies it.
import { jsonValueSpans } from './jsonPathRanges';

/** What a missing field gets: the neutral value Canton's own example client sends. */
export const DEDUPLICATION_DEFAULT = { DeduplicationDuration: { value: { seconds: 600, nanos: 0 } } };

/** JsPrepareSubmissionRequest: `""` lets the node choose a synchronizer where it can; no package preference. */
export const PREPARE_DECODER_FIELDS: Record<string, unknown> = { synchronizerId: '', packageIdSelectionPreference: [] };
/** JsExecuteSubmissionRequest and its two …AndWait forms. */
export const EXECUTE_DECODER_FIELDS: Record<string, unknown> = { deduplicationPeriod: DEDUPLICATION_DEFAULT };

/** The fields of `required` that the object lacks, with the values to add. */
export function missingFields(request: Record<string, unknown>, required: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(required).filter(([k]) => request[k] === undefined));
}

/**
 * The insertion that adds `fields` at the end of the root object of `text`, indented as its first
 * field is; undefined when the text is not one JSON object.
 */
export function addTopLevelFields(text: string, fields: Record<string, unknown>): { offset: number; insert: string } | undefined {
  const root = jsonValueSpans(text).get('$');
  if (!root || text[root.start] !== '{' || text[root.end - 1] !== '}') return undefined;
  const entries = Object.entries(fields);
  if (entries.length === 0) return undefined;
  const close = root.end - 1;
  let last = close - 1;
  while (last > root.start && /\s/.test(text[last])) last--;
  const indent = /\{\s*?\n([ \t]+)"/.exec(text.slice(root.start, close))?.[1] ?? '  ';
  const lines = entries.map(([k, v]) => `${indent}${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n');
  const empty = last === root.start;
  return { offset: last + 1, insert: `${empty ? '' : ','}\n${lines}${empty ? '\n' : ''}` };
}
