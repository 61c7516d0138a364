import Ajv, { type ValidateFunction } from 'ajv';

/** The parts of an OpenAPI 3.0 document the tests read. */
export type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  nullable?: boolean;
  format?: string;
};
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  example?: unknown;
  schema?: Schema;
}
export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema; example?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: Schema }> }>;
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
  tags?: { name: string }[];
  security?: unknown[];
}

export const operationsOf = (doc: OpenApiDoc) =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

export function resolve(doc: OpenApiDoc, schema: Schema): Schema {
  let s = schema;
  while (s.$ref) s = doc.components.schemas[s.$ref.split('/').pop()!];
  return s;
}

/**
 * The value Swagger UI puts in the "Try it out" box: the example, else the default, else the first
 * enum value, else a placeholder of the type (the placeholders are what an integrator would send
 * unchanged, so a property without an example must accept them).
 */
export function sampleOf(doc: OpenApiDoc, schema: Schema, depth = 0): unknown {
  const s = resolve(doc, schema);
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => sampleOf(doc, part, depth + 1)));
  if (s.oneOf ?? s.anyOf) return sampleOf(doc, (s.oneOf ?? s.anyOf)![0], depth + 1);
  if (s.type === 'array') return s.items && depth < 8 ? [sampleOf(doc, s.items, depth + 1)] : [];
  if (s.type === 'object' || s.properties) {
    return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sampleOf(doc, v, depth + 1)]));
  }
  if (s.type === 'string') return s.format === 'date-time' ? new Date().toISOString() : s.format === 'email' ? 'user@example.com' : 'string';
  if (s.type === 'integer' || s.type === 'number') return 0;
  if (s.type === 'boolean') return true;
  return {};
}

/** OpenAPI 3.0 schema → JSON Schema: `nullable` becomes a null alternative; refs stay inside `components`. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'example' || k === 'nullable') continue;
    out[k] = k === 'properties' || k === 'schemas' ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, toJsonSchema(s)])) : toJsonSchema(v);
  }
  if ((node as Schema).nullable) {
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

/** Validators of response schemas against the document's components (strict: unknown keywords are errors). */
export function responseValidator(doc: OpenApiDoc): (schema: Schema) => ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictTuples: false, validateFormats: false, keywords: ['x-enumNames'] });
  const rewrite = (node: unknown): unknown => JSON.parse(JSON.stringify(toJsonSchema(node)).replace(/"#\/components\/schemas\//g, '"openapi#/$defs/'));
  ajv.addSchema({ $id: 'openapi', $defs: rewrite(doc.components.schemas) });
  return (schema) => ajv.compile(rewrite(schema) as object);
}
