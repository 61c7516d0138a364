import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';

/** The parts of an OpenAPI 3.1 document the tests read. */
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
  responses: Record<
    string,
    { description: string; headers?: Record<string, { $ref?: string }>; content?: Record<string, { schema?: Schema; example?: unknown }> }
  >;
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
  tags?: { name: string; description?: string }[];
  security?: unknown[];
  servers?: { url: string }[];
  webhooks?: Record<string, { post: Operation }>;
}

export const operationsOf = (doc: OpenApiDoc) =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

/** The formats the document uses, checked (RFC 3339 date-time with an offset or Z, as every timestamp is sent). */
const FORMATS = {
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  email: /^[^@\s]+@[^@\s]+$/,
};

/** Validators of schemas against the document's components (OpenAPI 3.1: JSON Schema 2020-12; strict: unknown keywords are errors). */
export function responseValidator(doc: OpenApiDoc): (schema: Schema) => ValidateFunction {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    formats: FORMATS,
    discriminator: true,
    keywords: ['x-enumNames', 'example'],
  });
  // Ajv reads a discriminator from each branch's `const` and refuses `mapping` (which says the same).
  const rewrite = (node: unknown): unknown =>
    JSON.parse(JSON.stringify(node, (k, v: unknown) => (k === 'mapping' ? undefined : v)).replace(/"#\/components\/schemas\//g, '"openapi#/$defs/'));
  ajv.addSchema({ $id: 'openapi', $defs: rewrite(doc.components.schemas) });
  return (schema) => ajv.compile(rewrite(schema) as object);
}
