// Reads the vendored OpenAPI files (spec/openapi/) and extracts what the fake node checks
// requests and responses against: for each served route, its request and response schemas, and
// every component they reference. `npm run spec:extract` writes the result into
// src/fakeNode/spec/servedSchemas.json; test/unit/fakeNodeRequests.test.ts fails when the two differ.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { ServedSchemas, ServedSpec, ServedRoute } from '../../src/fakeNode/spec/apiSchemas';
import { SPEC_FILES, SPEC_ROUTES, SPEC_VERSIONS } from '../../src/fakeNode/spec/specRoutes';

export const SPEC_DIR = path.resolve(__dirname, '..', '..', '..', 'spec', 'openapi');
export const SERVED_SCHEMAS_FILE = path.resolve(__dirname, '..', '..', '..', 'src', 'fakeNode', 'spec', 'servedSchemas.json');

type Json = Record<string, unknown>;
const REF = '#/components/schemas/';

export function readSpec(version: (typeof SPEC_VERSIONS)[number]): Json {
  return parse(fs.readFileSync(path.join(SPEC_DIR, SPEC_FILES[version]), 'utf8')) as Json;
}

/** The served routes of one spec, with the closure of the components they use. */
export function extractServed(spec: Json): ServedSpec {
  const paths = spec.paths as Record<string, Record<string, Json>>;
  const components = (spec.components as { schemas: Record<string, unknown> }).schemas;
  const routes: Record<string, ServedRoute> = {};
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
  }
  const schemas: Record<string, unknown> = {};
  for (const name of [...used].sort()) schemas[name] = withoutDocs(components[name]);
  return { specVersion: String((spec.info as Json).version), routes, schemas };
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
  return Object.fromEntries(SPEC_VERSIONS.map((v) => [v, extractServed(readSpec(v))])) as ServedSchemas;
}

if (require.main === module) {
  fs.writeFileSync(SERVED_SCHEMAS_FILE, `${JSON.stringify(extractAll())}\n`);
  console.log(`Wrote ${path.relative(process.cwd(), SERVED_SCHEMAS_FILE)} (${fs.statSync(SERVED_SCHEMAS_FILE).size} bytes).`);
}
