// Writes media/prepare-request.schema.json: JsPrepareSubmissionRequest of the vendored Canton 3.5
// OpenAPI file (with its descriptions, for hover docs), as a draft-07 JSON schema for *.prepare.json.
// Run after changing the vendored spec: `node out/test/support/prepareSchemaGen.js`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { requestSchemaOf } from './apiSpecExtract';

const OUT = path.resolve(__dirname, '..', '..', '..', 'media', 'prepare-request.schema.json');
const BASE64 = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

export function prepareSchema(): Record<string, unknown> {
  const { root, definitions } = requestSchemaOf('3.5', 'JsPrepareSubmissionRequest');
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
