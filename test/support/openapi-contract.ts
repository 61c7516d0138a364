import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Contract checks over an OpenAPI 3.0 or 3.1 document, as an integrator's tools read it: a 3.1
 * schema is JSON Schema 2020-12 as written; a 3.0 schema's `nullable: true` adds "null" to its
 * `type` and nothing else, so an enum that does not list null still refuses null (OpenAPI 3.0.3).
 */
export type Node = Record<string, unknown>;
export interface ContractDoc {
  openapi: string;
  paths: Record<string, Node>;
  components?: Record<string, Record<string, Node>>;
  security?: unknown[];
  webhooks?: Record<string, Node>;
}
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  example?: unknown;
  examples?: Record<string, Node>;
  schema?: Node;
}
export interface MediaType {
  schema?: Node;
  example?: unknown;
  examples?: Record<string, Node>;
}
export interface ResponseObject {
  description?: string;
  headers?: Record<string, Node>;
  content?: Record<string, MediaType>;
}
export interface Operation {
  operationId?: string;
  description?: string;
  security?: unknown[];
  parameters?: Node[];
  requestBody?: Node;
  responses: Record<string, Node>;
}
export interface OperationRef {
  path: string;
  method: string;
  op: Operation;
  parameters: Parameter[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const OPENAPI_FORMATS = ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'];

/** Follows local `$ref`s (`#/components/...`) until an object without one. */
export function deref<T>(doc: ContractDoc, node: T): T {
  let current: unknown = node;
  for (let hops = 0; hops < 20 && typeof current === 'object' && current !== null && typeof (current as Node).$ref === 'string'; hops++) {
    const pointer = ((current as Node).$ref as string).replace(/^#\//, '').split('/');
    current = pointer.reduce<unknown>((at, key) => (at as Node | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return current as T;
}

/** Every operation, with the path item's parameters merged under its own. */
export function operationsOf(doc: ContractDoc): OperationRef[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => {
    const shared = ((item.parameters as Node[] | undefined) ?? []).map((p) => deref(doc, p) as unknown as Parameter);
    return METHODS.filter((m) => item[m]).map((method) => {
      const op = item[method] as Operation;
      const own = (op.parameters ?? []).map((p) => deref(doc, p) as unknown as Parameter);
      const parameters = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      return { path, method, op, parameters };
    });
  });
}

const isObject = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** OpenAPI 3.0 schema → JSON Schema draft 7 (see the file comment); schema maps keep their names. */
function from30(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(from30);
  if (!isObject(node)) return node;
  const out: Node = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'nullable' || k === 'example' || k === 'discriminator' || k === 'xml' || k === 'externalDocs') continue;
    out[k] =
      ['properties', 'patternProperties', '$defs'].includes(k) && isObject(v)
        ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, from30(s)]))
        : from30(v);
  }
  if (node.nullable !== true) return out;
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

/** Compiles response and header schemas against the document's components, formats checked. */
export function schemaValidator(doc: ContractDoc): (schema: Node) => ValidateFunction {
  const is31 = doc.openapi.startsWith('3.1');
  const ajv = is31 ? new Ajv2020({ allErrors: true, strict: false, logger: false }) : new Ajv({ allErrors: true, strict: false, logger: false });
  addFormats(ajv);
  for (const f of OPENAPI_FORMATS) ajv.addFormat(f, true);
  const convert = (s: unknown) => (is31 ? s : from30(s));
  const rewrite = (s: unknown): unknown => JSON.parse(JSON.stringify(convert(s)).replace(/"#\/components\/schemas\//g, '"openapi#/$defs/'));
  ajv.addSchema({ $id: 'openapi', $defs: rewrite(doc.components?.schemas ?? {}) as Node });
  const cache = new Map<string, ValidateFunction>();
  return (schema) => {
    const key = JSON.stringify(schema);
    let validate = cache.get(key);
    if (!validate) cache.set(key, (validate = ajv.compile(rewrite(schema) as Node)));
    return validate;
  };
}

export const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? [])
    .slice(0, 6)
    .map(
      (e) => `${e.instancePath || '(root)'} ${e.message ?? ''}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`,
    )
    .join('; ');

/** A value the schema accepts, from its examples when it has them (what Swagger UI would prefill). */
export function sampleOf(doc: ContractDoc, schema: Node | undefined, depth = 0): unknown {
  const s = deref(doc, schema ?? {});
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum.find((v) => v !== null) ?? null;
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((part: Node) => sampleOf(doc, part, depth + 1)));
  const choices = (s.oneOf ?? s.anyOf) as Node[] | undefined;
  if (choices?.length) return sampleOf(doc, choices.find((c) => deref(doc, c).type !== 'null') ?? choices[0], depth + 1);
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string | undefined];
  const type = types.find((t) => t !== 'null') ?? types[0];
  if (type === 'array') return s.items && depth < 8 ? [sampleOf(doc, s.items as Node, depth + 1)] : [];
  if (type === 'object' || s.properties) {
    return Object.fromEntries(Object.entries((s.properties as Record<string, Node>) ?? {}).map(([k, v]) => [k, sampleOf(doc, v, depth + 1)]));
  }
  if (type === 'string') return s.format === 'date-time' ? new Date().toISOString() : s.format === 'email' ? 'user@example.com' : 'string';
  if (type === 'integer' || type === 'number') return typeof s.minimum === 'number' ? s.minimum : 1;
  if (type === 'boolean') return true;
  return type === 'null' ? null : {};
}

/** A parameter's example, from the parameter or its schema. */
export function parameterExample(doc: ContractDoc, p: Parameter): unknown {
  if (p.example !== undefined) return p.example;
  const named = Object.values(p.examples ?? {})[0];
  if (named) return deref(doc, named).value;
  return p.schema ? deref(doc, p.schema).example : undefined;
}

/** The JSON body an operation documents: its media example, else one sampled from the schema. */
export function requestBodyOf(doc: ContractDoc, op: Operation): { body: unknown; schema?: Node } | undefined {
  if (!op.requestBody) return undefined;
  const media = (deref(doc, op.requestBody).content as Record<string, MediaType> | undefined)?.['application/json'];
  if (!media) return undefined;
  const named = Object.values(media.examples ?? {})[0];
  if (media.example !== undefined) return { body: media.example, schema: media.schema };
  if (named) return { body: deref(doc, named).value, schema: media.schema };
  return { body: sampleOf(doc, media.schema), schema: media.schema };
}

/** A body of the documented shape with every property of the wrong type, for a 400. */
export function wronglyTypedBody(doc: ContractDoc, schema: Node | undefined): Node {
  const s = deref(doc, schema ?? {});
  const props = Object.entries((s.properties as Record<string, Node>) ?? {});
  const all = (s.allOf as Node[] | undefined)?.flatMap((part) => Object.entries((deref(doc, part).properties as Record<string, Node>) ?? {})) ?? [];
  const wrong = (p: Node) => {
    const t = deref(doc, p).type;
    const types = Array.isArray(t) ? t : [t];
    return types.includes('string') ? { not: 'a string' } : 'not-of-this-type';
  };
  const entries = [...props, ...all].map(([k, v]) => [k, wrong(v)] as const);
  return entries.length ? Object.fromEntries(entries) : { unexpected: { not: 'a body' } };
}
