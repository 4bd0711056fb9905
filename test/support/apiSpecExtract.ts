// Reads the vendored OpenAPI files (spec/openapi/) and extracts what the fake node checks
// requests and responses against: for each served route, its request and response schemas, and
// every component they reference, and which fields Canton's decoder requires of each request
// schema (spec/canton-decoders-<version>.json). `npm run spec:extract` writes the result into
// fake-ledger/src/spec/servedSchemas.json; fake-ledger/test/fakeNodeRequests.test.ts fails when the two differ.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { ServedSchemas, ServedSpec, ServedRoute } from '../../fake-ledger/src/spec/apiSchemas';
import { ASYNC_SPEC_FILES, SPEC_CHANNELS, SPEC_FILES, SPEC_ROUTES, SPEC_VERSIONS } from '../../fake-ledger/src/spec/specRoutes';

export const SPEC_DIR = path.resolve(__dirname, '..', '..', '..', 'spec', 'openapi');
export const ASYNC_SPEC_DIR = path.resolve(__dirname, '..', '..', '..', 'spec', 'asyncapi');
export const SERVED_SCHEMAS_FILE = path.resolve(__dirname, '..', '..', '..', 'fake-ledger', 'src', 'spec', 'servedSchemas.json');
export const DECODERS_DIR = path.resolve(__dirname, '..', '..', '..', 'spec');

type Json = Record<string, unknown>;
const REF = '#/components/schemas/';

export function readSpec(version: (typeof SPEC_VERSIONS)[number]): Json {
  return parse(fs.readFileSync(path.join(SPEC_DIR, SPEC_FILES[version]), 'utf8')) as Json;
}

/** Canton's case classes of one release line (spec/canton-decoders-<version>.json, spec/README.md). */
export interface DecoderTable {
  source: { repository: string; ref: string; commit: string; path: string };
  classes: Record<string, { fields: { name: string; type: string; default: boolean }[]; decoderRequires: string[]; codec: string }>;
}

export function readDecoders(version: (typeof SPEC_VERSIONS)[number]): DecoderTable {
  return JSON.parse(fs.readFileSync(path.join(DECODERS_DIR, `canton-decoders-${version}.json`), 'utf8')) as DecoderTable;
}

/**
 * The fields each request schema's case class must have in the JSON, by schema name: a class's
 * simple name is its schema's name. Classes whose codec fills in missing fields ('relaxed') or
 * that were not found require nothing here.
 */
export function decoderRequiresOf(table: DecoderTable, schemaNames: Iterable<string>): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const [key, c] of Object.entries(table.classes)) {
    if (c.codec === 'relaxed' || c.codec === 'not found' || c.decoderRequires.length === 0) continue;
    const name = key.slice(key.lastIndexOf('.') + 1);
    const earlier = byName.get(name);
    if (earlier && earlier.join() !== c.decoderRequires.join()) throw new Error(`Two case classes named ${name} require different fields`);
    byName.set(name, c.decoderRequires);
  }
  const out: Record<string, string[]> = {};
  for (const name of [...schemaNames].sort()) {
    const requires = byName.get(name);
    if (requires) out[name] = requires;
  }
  return out;
}

/**
 * Exactly what Canton's decoder requires of each object schema a request reaches, by schema name
 * (the spec's `required` lists mix in what only the proto's comments require, which the validators
 * check later). A case class of the table: its `decoderRequires` (none for a 'relaxed' codec, the
 * spec's list for one the table did not find). Any other schema is a scalapb message decoded with
 * `deriveRelaxedCodec` (CirceRelaxedCodec.scala), whose fields all have defaults, except the
 * `value` of a oneof's case (`Kind.CanActAs(value)`: the schema that is the one property of a
 * `oneOf` branch); and an absent enum field, which that codec fills with an object its enum's
 * string decoder (`stringDecoderForEnum`) refuses: those are in `enums` as well.
 */
export function decodeRequiredOf(
  table: DecoderTable,
  components: Record<string, unknown>,
  schemaNames: Iterable<string>,
): { requires: Record<string, string[]>; enums: Record<string, string[]> } {
  const classes = new Map<string, { codec: string; decoderRequires: string[] }>();
  for (const [key, c] of Object.entries(table.classes)) {
    const name = key.slice(key.lastIndexOf('.') + 1);
    const earlier = classes.get(name);
    if (earlier && earlier.decoderRequires.join() !== c.decoderRequires.join()) throw new Error(`Two case classes named ${name} require different fields`);
    classes.set(name, c);
  }
  const oneofCases = new Set<string>();
  for (const schema of Object.values(components)) {
    for (const branch of ((schema as { oneOf?: unknown[] } | undefined)?.oneOf ?? []) as { properties?: Record<string, { $ref?: string }> }[]) {
      const props = Object.values(branch.properties ?? {});
      if (props.length === 1 && props[0].$ref?.startsWith(REF)) oneofCases.add(props[0].$ref.slice(REF.length));
    }
  }
  const isEnum = (p: { enum?: unknown; $ref?: string }): boolean =>
    Array.isArray(p.enum) ||
    (p.$ref?.startsWith(REF) === true && Array.isArray((components[p.$ref.slice(REF.length)] as { enum?: unknown } | undefined)?.enum));
  const requires: Record<string, string[]> = {};
  const enums: Record<string, string[]> = {};
  for (const name of [...schemaNames].sort()) {
    const s = components[name] as { properties?: Record<string, { enum?: unknown; $ref?: string }>; required?: string[] } | undefined;
    if (typeof s?.properties !== 'object') continue;
    const c = classes.get(name);
    if (c) requires[name] = c.codec === 'relaxed' ? [] : c.codec === 'not found' ? (s.required ?? []) : c.decoderRequires;
    else if (oneofCases.has(name)) requires[name] = s.required ?? [];
    else {
      const enumFields = Object.entries(s.properties)
        .filter(([, p]) => isEnum(p))
        .map(([f]) => f);
      requires[name] = enumFields;
      if (enumFields.length > 0) enums[name] = enumFields;
    }
  }
  return { requires, enums };
}

export function readAsyncSpec(version: (typeof SPEC_VERSIONS)[number]): Json {
  return parse(fs.readFileSync(path.join(ASYNC_SPEC_DIR, ASYNC_SPEC_FILES[version]), 'utf8')) as Json;
}

/**
 * A component schema of a vendored spec as a draft-07 JSON schema body: the root, with every schema
 * it references under `definitions`, each requiring what Canton's decoder requires; and party-id patterns on its `actAs` and `readAs` lists (at
 * least one acting party) and at least one command, as a request file needs.
 */
export function requestSchemaOf(
  version: (typeof SPEC_VERSIONS)[number],
  name: string,
): { root: Record<string, unknown>; definitions: Record<string, unknown> } {
  const all = (readSpec(version) as { components: { schemas: Record<string, unknown> } }).components.schemas;
  const definitions: Record<string, unknown> = {};
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => {
        if (k === '$ref' && typeof v === 'string' && v.startsWith(REF)) {
          const ref = v.slice(REF.length);
          if (!(ref in definitions)) {
            definitions[ref] = {};
            definitions[ref] = rewrite(all[ref]);
          }
          return [k, `#/definitions/${ref}`];
        }
        return [k, rewrite(v)];
      }),
    );
  };
  const root = rewrite(all[name]) as Record<string, unknown>;
  // What Canton's decoder requires is required in the editor too.
  const requires = decoderRequiresOf(readDecoders(version), [name, ...Object.keys(definitions)]);
  for (const [schema, fields] of Object.entries(requires)) {
    const s = (schema === name ? root : definitions[schema]) as { required?: string[] };
    s.required = [...new Set([...(s.required ?? []), ...fields])];
  }
  const props = root.properties as Record<string, Record<string, unknown>>;
  const parties = {
    type: 'array',
    items: { type: 'string', pattern: '^[A-Za-z0-9_\\- :]+::1220[0-9a-f]{64}$', patternErrorMessage: 'Not a party id (name::1220…).' },
  };
  Object.assign(props.actAs, parties, { minItems: 1 });
  Object.assign(props.readAs, parties);
  props.commands.minItems = 1;
  return { root, definitions };
}

/** A collector of the closure of `#/components/schemas/…` references. */
function closure(components: Record<string, unknown>) {
  const used = new Set<string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(collect);
    if (typeof node !== 'object' || node === null) return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(REF)) {
        const name = v.slice(REF.length);
        if (!used.has(name)) {
          used.add(name);
          collect(components[name]);
        }
      } else collect(v);
    }
  };
  const schemas = () => Object.fromEntries([...used].sort().map((name) => [name, withoutDocs(components[name])]));
  return { collect, schemas };
}

/** The served channels of an AsyncAPI file: each one's request message and frame, with their components. */
export function extractChannels(spec: Json): Pick<ServedSpec, 'channels' | 'channelSchemas'> {
  const channels = spec.channels as Record<string, { publish?: { message?: Json }; subscribe?: { message?: Json } }>;
  const messages = (spec.components as { messages: Record<string, { payload?: unknown }> }).messages;
  const { collect, schemas } = closure((spec.components as { schemas: Record<string, unknown> }).schemas);
  const payloadOf = (m: Json | undefined): unknown => {
    const ref = typeof m?.$ref === 'string' ? m.$ref : '';
    return ref.startsWith('#/components/messages/') ? messages[ref.slice('#/components/messages/'.length)]?.payload : m?.payload;
  };
  const served: ServedSpec['channels'] = {};
  for (const name of SPEC_CHANNELS) {
    const c = channels[name];
    if (!c) continue;
    served[name] = { request: payloadOf(c.publish?.message), frame: payloadOf(c.subscribe?.message) };
    collect(served[name]);
  }
  // `Either_JsCantonError_X` is a oneOf whose X has no required field, so an error frame matches
  // both branches and "exactly one" fails for every real one: it is checked as anyOf.
  const channelSchemas = schemas();
  for (const [name, schema] of Object.entries(channelSchemas)) {
    const s = schema as { oneOf?: unknown[] };
    if (name.startsWith('Either_') && s.oneOf) channelSchemas[name] = { anyOf: s.oneOf };
  }
  return { channels: served, channelSchemas };
}

/** The served routes of one spec, with the closure of the components they use. */
export function extractServed(spec: Json, asyncSpec?: Json, decoders?: DecoderTable): ServedSpec {
  const paths = spec.paths as Record<string, Record<string, Json>>;
  const components = (spec.components as { schemas: Record<string, unknown> }).schemas;
  const routes: Record<string, ServedRoute> = {};
  const { collect, schemas } = closure(components);
  const requests = closure(components);
  for (const route of SPEC_ROUTES) {
    const [method, p] = route.split(' ') as [string, string];
    const op = paths[p]?.[method.toLowerCase()];
    if (!op) continue;
    const body = (op.requestBody as Json | undefined)?.content as Record<string, { schema?: unknown }> | undefined;
    const responses: ServedRoute['responses'] = {};
    for (const [status, r] of Object.entries(op.responses as Record<string, Json>)) {
      const content = r.content as Record<string, { schema?: unknown }> | undefined;
      const [contentType, media] = Object.entries(content ?? {})[0] ?? [];
      responses[status] = contentType ? { contentType, schema: media?.schema ?? {} } : {};
    }
    const served = withoutDocs({ responses }) as ServedRoute;
    if (body?.['application/json']?.schema) served.request = body['application/json'].schema;
    routes[route] = served;
    collect(served);
    requests.collect(served.request);
  }
  const channels = asyncSpec ? extractChannels(asyncSpec) : { channels: {}, channelSchemas: {} };
  const channelRequests = asyncSpec ? closure((asyncSpec.components as { schemas: Record<string, unknown> }).schemas) : undefined;
  for (const c of Object.values(channels.channels)) channelRequests?.collect(c.request);
  const decoded = decoders ? decodeRequiredOf(decoders, components, Object.keys(requests.schemas())) : undefined;
  const channelDecoded =
    decoders && channelRequests && asyncSpec
      ? decodeRequiredOf(decoders, (asyncSpec.components as { schemas: Record<string, unknown> }).schemas, Object.keys(channelRequests.schemas()))
      : undefined;
  return {
    specVersion: String((spec.info as Json).version),
    routes,
    schemas: schemas(),
    ...channels,
    decoderRequires: decoded?.requires ?? {},
    decoderEnumDefaults: decoded?.enums ?? {},
    channelDecoderRequires: channelDecoded?.requires ?? {},
  };
}

/** Drops what only documents a schema (descriptions, titles, examples): validation never reads it. */
function withoutDocs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDocs);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k, v]) => !(DOC_KEYS.has(k) && typeof v !== 'object'))
      .map(([k, v]) => [k, withoutDocs(v)]),
  );
}

const DOC_KEYS = new Set(['description', 'title', 'example']);

export function extractAll(): ServedSchemas {
  return Object.fromEntries(SPEC_VERSIONS.map((v) => [v, extractServed(readSpec(v), readAsyncSpec(v), readDecoders(v))])) as ServedSchemas;
}

if (require.main === module) {
  fs.writeFileSync(SERVED_SCHEMAS_FILE, `${JSON.stringify(extractAll())}\n`);
  console.log(`Wrote ${path.relative(process.cwd(), SERVED_SCHEMAS_FILE)} (${fs.statSync(SERVED_SCHEMAS_FILE).size} bytes).`);
}
