// One validator for both directions: request bodies the fake node receives and responses it
// sends, against the schemas of the official OpenAPI file of the emulated version (extracted into
// servedSchemas.json). It has no `vscode` import: the demo ledger and the tests share it.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import served from './servedSchemas.json';
import type { SPEC_VERSIONS } from './specRoutes';

export type SpecVersion = (typeof SPEC_VERSIONS)[number];

export interface ServedRoute {
  /** The JSON request body's schema, when the route takes one. */
  request?: unknown;
  /** By status (`200`, `400`, `default`): the content type and schema, none for an empty body. */
  responses: Record<string, { contentType?: string; schema?: unknown }>;
}

/** A websocket channel: the one message a client publishes, and the frames the node sends. */
export interface ServedChannel {
  request: unknown;
  frame: unknown;
}

export interface ServedSpec {
  specVersion: string;
  routes: Record<string, ServedRoute>;
  schemas: Record<string, unknown>;
  /** From the AsyncAPI file, with its own components (the same names, checked apart). */
  channels: Record<string, ServedChannel>;
  channelSchemas: Record<string, unknown>;
  /**
   * By object schema a request reaches: exactly the fields Canton's decoder requires, whatever the
   * spec's `required` says (a case class's fields with no default that are not an Option: circe's
   * deriveConfiguredCodec with useDefaults; scalapb messages require only a oneof case's `value`;
   * spec/canton-decoders-<version>.json, test/support/apiSpecExtract.ts).
   */
  decoderRequires: Record<string, string[]>;
  /** Of those, the enum fields of scalapb messages: absent, the relaxed codec's default does not decode. */
  decoderEnumDefaults: Record<string, string[]>;
  channelDecoderRequires: Record<string, string[]>;
}

export type ServedSchemas = Record<SpecVersion, ServedSpec>;

export type RequestCheck =
  /** Decoded. `missing`: required top-level fields that are absent (the node reports MISSING_FIELD after its rights check). */
  | { ok: true; body: Record<string, unknown>; missing: string[] }
  /** Not decodable (the spec's schema, or Canton's case class): the node answers 400 text/plain. */
  | { ok: false; reason: string; at: string };

const REF = '#/components/schemas/';

export class ApiSchemas {
  private static readonly byVersion = new Map<SpecVersion, ApiSchemas>();
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, verbose: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  /** By decoded schema object (ajv's `parentSchema`): its enum fields whose codec default does not decode. */
  private readonly enumDefaults = new Map<unknown, string[]>();

  static for(version: SpecVersion): ApiSchemas {
    let schemas = this.byVersion.get(version);
    if (!schemas) this.byVersion.set(version, (schemas = new ApiSchemas(version, (served as unknown as ServedSchemas)[version])));
    return schemas;
  }

  private constructor(readonly version: SpecVersion, private readonly spec: ServedSpec) {
    // Requests are decoded with what the decoder requires; responses are checked against the spec.
    this.ajv.addSchema({ $id: this.id, components: { schemas: spec.schemas } });
    const decoded = decodedAsCanton(spec.schemas, spec.decoderRequires);
    for (const [name, fields] of Object.entries(spec.decoderEnumDefaults)) this.enumDefaults.set(decoded[name], fields);
    this.ajv.addSchema({ $id: this.requestId, components: { schemas: decoded } });
    this.ajv.addSchema({ $id: this.asyncId, components: { schemas: spec.channelSchemas } });
    this.ajv.addSchema({ $id: this.asyncRequestId, components: { schemas: decodedAsCanton(spec.channelSchemas, spec.channelDecoderRequires) } });
  }

  /**
   * What is wrong with a websocket message (the client's request, or a frame the node sends),
   * against the channel's AsyncAPI schema; undefined when it conforms.
   */
  checkChannelMessage(channel: string, direction: 'request' | 'frame', text: string): string | undefined {
    const c = Object.hasOwn(this.spec.channels, channel) ? this.spec.channels[channel] : undefined;
    if (!c) return `${channel} is not a channel of the ${this.spec.specVersion} AsyncAPI`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return `a ${direction} on ${channel} is not JSON`;
    }
    const validate = this.validator(`${direction} ${channel}`, c[direction], direction === 'request' ? this.asyncRequestId : this.asyncId);
    if (validate(withoutNulls(parsed))) return undefined;
    return (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`).join('; ');
  }

  private get asyncId(): string {
    return `canton-json-async-${this.version}`;
  }

  private get asyncRequestId(): string {
    return `canton-json-async-decoded-${this.version}`;
  }

  /** `POST /v2/...` when this version's spec has the route. */
  route(route: string): ServedRoute | undefined {
    return Object.hasOwn(this.spec.routes, route) ? this.spec.routes[route] : undefined;
  }

  /** Decodes a request body as the node's JSON layer does: JSON, then the route's schema. */
  checkRequest(route: string, text: string): RequestCheck {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      return { ok: false, reason: `expected json value got '${text.slice(0, 20)}' (${(e as Error).message})`, at: '' };
    }
    const schema = this.route(route)?.request;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return { ok: false, reason: 'Got value with wrong type, expecting object', at: '' };
    }
    const body = withoutNulls(parsed) as Record<string, unknown>;
    if (schema === undefined) return { ok: true, body, missing: [] };
    const validate = this.validator(`request ${route}`, schema, this.requestId);
    if (!validate(body)) {
      const first = mostSpecific(validate.errors ?? []);
      return { ok: false, reason: this.enumDefaultRefused(first) ?? describe(first), at: dotted(first) };
    }
    // A top-level field the spec requires and the decoder filled with its default: a number or a
    // boolean is its proto default (0, false) for the validators to judge; any other is the
    // validator's MISSING_FIELD, after the rights. Nested ones are the route's validators'.
    const root = this.spec.schemas[refName(schema)] as { required?: string[]; properties?: Record<string, { type?: string }> } | undefined;
    const missing: string[] = [];
    for (const f of (root?.required ?? []).filter((name) => !Object.hasOwn(body, name))) {
      const type = root?.properties?.[f]?.type;
      if (type === 'integer' || type === 'number') body[f] = 0;
      else if (type === 'boolean') body[f] = false;
      else missing.push(f);
    }
    return { ok: true, body, missing };
  }

  /**
   * What is wrong with a response, or undefined when the spec allows it. The status's own entry
   * or `default` may describe it: a node's 400 is text/plain for a body it cannot decode (the
   * `400` entry) and a JsCantonError for a request it refuses (`default`).
   */
  checkResponse(route: string, status: number, contentType: string | undefined, text: string): string | undefined {
    const spec = this.route(route);
    if (!spec) return `${route} is not in the ${this.spec.specVersion} spec`;
    const candidates = [spec.responses[String(status)], spec.responses.default].filter((c) => c !== undefined);
    if (candidates.length === 0) return `status ${status} is not declared for ${route}`;
    const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    const declared = candidates.find((c) => (c.contentType === undefined ? text === '' : c.contentType === mediaType));
    if (!declared) {
      const allowed = candidates.map((c) => c.contentType ?? 'no body').join(' or ');
      return `status ${status} of ${route}: ${text === '' ? 'no body' : `content type ${contentType ?? '(none)'}`}, the spec says ${allowed}`;
    }
    if (!declared.contentType) return undefined;
    if (mediaType !== 'application/json') return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return `status ${status} of ${route}: the body is not JSON`;
    }
    const validate = this.validator(`response ${route} ${declared === spec.responses.default ? 'default' : status}`, declared.schema);
    // Real nodes encode absent options as null where the spec declares no `nullable`.
    if (validate(withoutNulls(parsed))) return undefined;
    return (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`).join('; ');
  }

  /**
   * CirceRelaxedCodec fills an absent enum field with `{"Unrecognized":…}`, which the enum's string
   * decoder refuses as circe words it.
   */
  private enumDefaultRefused(e: ErrorObject): string | undefined {
    if (e.keyword !== 'required') return undefined;
    return this.enumDefaults.get(e.parentSchema)?.includes(String(e.params.missingProperty)) ? `Got value '{"Unrecognized":{"unrecognizedValue":0}}' with wrong type, expecting string` : undefined;
  }

  private get id(): string {
    return `canton-json-api-${this.version}`;
  }

  private get requestId(): string {
    return `canton-json-api-decoded-${this.version}`;
  }

  private validator(key: string, schema: unknown, id = this.id): ValidateFunction {
    let v = this.compiled.get(key);
    if (!v) this.compiled.set(key, (v = this.ajv.compile(rebase(schema, id) as object)));
    return v;
  }
}

/** The components with each request schema's `required` replaced by what Canton's decoder requires of it. */
function decodedAsCanton(schemas: Record<string, unknown>, requires: Record<string, string[]>): Record<string, unknown> {
  const out = { ...schemas };
  for (const [name, fields] of Object.entries(requires)) {
    const s = out[name] as Record<string, unknown> | undefined;
    if (!s) continue;
    const { required: _spec, ...rest } = s;
    out[name] = fields.length > 0 ? { ...rest, required: fields } : rest;
  }
  return out;
}

const refName = (schema: unknown): string => {
  const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
  return typeof ref === 'string' && ref.startsWith(REF) ? ref.slice(REF.length) : '';
};

/** Points `#/components/schemas/X` references of a route's schema at the version's components. */
function rebase(schema: unknown, id: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => rebase(s, id));
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith(REF) ? `${id}${v}` : rebase(v, id)]));
}

/** Object properties that are null are absent: the node's JSON codec reads null as "no value". Nulls in arrays stay. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
  return out;
}

function mostSpecific(errors: ErrorObject[]): ErrorObject {
  return errors.reduce((best, e) => (e.instancePath.length > best.instancePath.length && e.keyword !== 'oneOf' ? e : best), errors[0]);
}

function describe(e: ErrorObject): string {
  switch (e.keyword) {
    case 'type': return `Got value with wrong type, expecting ${String(e.params.type)}`;
    case 'enum': return `Unknown enum value ${JSON.stringify(e.data)}`;
    case 'required': return 'Missing required field';
    case 'oneOf': return 'Expected exactly one of the allowed alternatives';
    default: return e.message ?? e.keyword;
  }
}

function dotted(e: ErrorObject): string {
  const parts = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const path = parts.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('');
  const field = e.keyword === 'required' ? `.${String(e.params.missingProperty)}` : '';
  return `${path}${field}`.replace(/^\./, '');
}
