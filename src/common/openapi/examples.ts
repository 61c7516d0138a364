import type { MediaTypeObject, OpenAPIObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { operationsOf } from './refine';

type Schema = SchemaObject & { const?: unknown };

const STRING_BY_FORMAT: Record<string, string> = {
  'date-time': '2026-03-04T05:06:07+00:00',
  date: '2026-03-04',
  uuid: '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  email: 'user@example.com',
};

/**
 * The example of a schema, composed from the examples of its parts: the schema's own example,
 * const, default or first enum value, else its first non-null alternative, else one of its type
 * (an object gets every property, an array one item).
 */
export function exampleOf(document: OpenAPIObject, schema: Schema | ReferenceObject, depth = 0): unknown {
  if ('$ref' in schema) return exampleOf(document, document.components!.schemas![schema.$ref.split('/').pop()!], depth);
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  const listed: unknown = (schema.enum as unknown[] | undefined)?.find((v) => v !== null);
  if (listed !== undefined) return listed;
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => exampleOf(document, part, depth + 1)));
  const alternatives = (schema.oneOf ?? schema.anyOf)?.filter((s) => !('type' in s && s.type === 'null'));
  if (alternatives?.length) return exampleOf(document, alternatives[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'array') return schema.items && schema.maxItems !== 0 && depth < 8 ? [exampleOf(document, schema.items, depth + 1)] : [];
  if (type === 'object' || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, exampleOf(document, v, depth + 1)]));
  }
  if (type === 'string') return STRING_BY_FORMAT[schema.format ?? ''] ?? 'string';
  if (type === 'integer' || type === 'number') return schema.minimum ?? 0;
  if (type === 'boolean') return true;
  return null;
}

const withExample = (document: OpenAPIObject, media: MediaTypeObject | undefined) => {
  if (media?.schema && media.example === undefined && media.examples === undefined) media.example = exampleOf(document, media.schema);
};

/**
 * A request example for every JSON body and a response example for every 2xx JSON answer, built
 * from the property examples (which name records of the demo dataset), unless the operation gives its own.
 */
export function addMediaExamples(document: OpenAPIObject): void {
  for (const { op } of operationsOf(document)) {
    if (op.requestBody && !('$ref' in op.requestBody)) withExample(document, op.requestBody.content['application/json']);
    for (const [status, response] of Object.entries(op.responses)) {
      if (status.startsWith('2') && response && !('$ref' in response)) withExample(document, response.content?.['application/json']);
    }
  }
  for (const item of Object.values(document.webhooks ?? {})) {
    const body = item.post?.requestBody;
    if (body && !('$ref' in body)) withExample(document, body.content['application/json']);
  }
}
