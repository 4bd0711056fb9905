// Writes media/prepare-request.schema.json: JsPrepareSubmissionRequest of the vendored Canton 3.5
// OpenAPI file (with its descriptions, for hover docs), as a draft-07 JSON schema for *.prepare.json.
// Run after changing the vendored spec: `node out/test/support/prepareSchemaGen.js`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readSpec } from './apiSpecExtract';

const OUT = path.resolve(__dirname, '..', '..', '..', 'media', 'prepare-request.schema.json');
const REF = '#/components/schemas/';
const BASE64 = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';
const PARTY = '^[A-Za-z0-9_\\- :]+::1220[0-9a-f]{64}$';

export function prepareSchema(): Record<string, unknown> {
  const spec = readSpec('3.5') as { components: { schemas: Record<string, unknown> } };
  const all = spec.components.schemas;
  const definitions: Record<string, unknown> = {};
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => {
        if (k === '$ref' && typeof v === 'string' && v.startsWith(REF)) {
          const name = v.slice(REF.length);
          if (!(name in definitions)) {
            definitions[name] = {};
            definitions[name] = rewrite(all[name]);
          }
          return [k, `#/definitions/${name}`];
        }
        return [k, rewrite(v)];
      }),
    );
  };
  const root = rewrite(all.JsPrepareSubmissionRequest) as Record<string, unknown>;
  const props = root.properties as Record<string, Record<string, unknown>>;
  const parties = { type: 'array', items: { type: 'string', pattern: PARTY, patternErrorMessage: 'Not a party id (name::1220…).' } };
  Object.assign(props.actAs, parties, { minItems: 1 });
  Object.assign(props.readAs, parties);
  props.commands.minItems = 1;
  for (const d of Object.values(definitions) as Record<string, unknown>[]) {
    const p = d.properties as Record<string, Record<string, unknown>> | undefined;
    if (p?.createdEventBlob) Object.assign(p.createdEventBlob, { pattern: BASE64, patternErrorMessage: 'Must be base64.' });
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://github.com/canton-lens/canton-lens/prepare-request.schema.json',
    title: 'Canton JsPrepareSubmissionRequest (POST /v2/interactive-submission/prepare)',
    description: 'Commands to prepare for external signing, for Canton: Prepare Transaction. From the OpenAPI file of Canton 3.5 (spec/openapi).',
    ...root,
    definitions,
  };
}

if (require.main === module) {
  fs.writeFileSync(OUT, `${JSON.stringify(prepareSchema(), null, 2)}\n`);
  console.log(`Wrote ${OUT}`);
}
