import type { OpenAPIObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** The non-ISO timestamps some v2 objects keep from the platform they mirror, by the shape of their example. */
const PATTERNS: { example: RegExp; pattern: string; text: string }[] = [
  { example: /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/, pattern: '^\\d{2}\\.\\d{2}\\.\\d{4} \\d{2}:\\d{2}$', text: 'dd.mm.yyyy hh:mm' },
  { example: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$', text: 'yyyy-mm-dd hh:mm:ss' },
];
/** Property names that hold a point in time. */
export const TIMESTAMP_NAME = /(At|DateTime|^timestamp|^localTime)$/;

const isString = (s: SchemaObject) => s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'));

/**
 * Each timestamp of a response object (a component that is not a request Dto) states its form:
 * `format: date-time` for ISO 8601 ones, a `pattern` for the others, by the shape of its example.
 */
export function typeTimestamps(document: OpenAPIObject): void {
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    if (name.endsWith('Dto') || '$ref' in schema) continue;
    for (const [field, prop] of Object.entries<SchemaObject | ReferenceObject>(schema.properties ?? {})) {
      if ('$ref' in prop || !isString(prop) || !TIMESTAMP_NAME.test(field) || prop.format || prop.pattern || prop.enum || prop.anyOf || prop.oneOf) continue;
      const example = typeof prop.example === 'string' ? prop.example : undefined;
      const other = example === undefined ? undefined : PATTERNS.find((p) => p.example.test(example));
      if (other) {
        prop.pattern = other.pattern;
        prop.description = prop.description ? `${prop.description} (${other.text})` : other.text;
      } else if (example === undefined || ISO_DATE_TIME.test(example)) {
        prop.format = 'date-time';
      }
    }
  }
}
