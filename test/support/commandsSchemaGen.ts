// Writes media/commands-request-<version>.schema.json for 3.4, 3.5 and 3.6: JsCommands (the
// `commands` of POST /v2/commands/submit-and-wait-for-transaction) of each vendored OpenAPI file, as
// a draft-07 JSON schema for *.commands.json, with the spec's descriptions for hover docs. The
// editor validates *.commands.json against the 3.6 one (package.json, jsonValidation); the versions
// differ only in `prefetchContractKeys[].limit` (3.5+), which the review flags on a 3.4 node. Run
// after changing the vendored spec: `node out/test/support/commandsSchemaGen.js`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { requestSchemaOf } from './apiSpecExtract';
import type { SPEC_VERSIONS } from '../../fake-ledger/src/spec/specRoutes';

export const commandsSchemaFile = (version: string) => path.resolve(__dirname, '..', '..', '..', 'media', `commands-request-${version}.schema.json`);

/** JsCommands of one version's spec, with every definition it references. */
export function commandsSchema(version: (typeof SPEC_VERSIONS)[number] = '3.6'): Record<string, unknown> {
  const { root, definitions } = requestSchemaOf(version, 'JsCommands');
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `https://github.com/canton-lens/canton-lens/commands-request-${version}.schema.json`,
    title: 'Canton JsCommands (POST /v2/commands/submit-and-wait-for-transaction)',
    description: `Commands to submit with the token's rights, for Canton: Submit Commands. From the OpenAPI file of Canton ${version} (spec/openapi).`,
    ...root,
    definitions,
  };
}

if (require.main === module) {
  for (const version of ['3.4', '3.5', '3.6'] as const) {
    fs.writeFileSync(commandsSchemaFile(version), `${JSON.stringify(commandsSchema(version), null, 2)}\n`);
    console.log(`Wrote ${commandsSchemaFile(version)}`);
  }
}
