/**
 * A small shape checker for the contract specs: a spec maps each field to a type expression or a validator, and
 * `expectShape` names every offending field. Type expressions: 'int', 'float', 'string', 'bool', 'null', 'iso', 'sqldt',
 * 'shortdt', 'date', 'hhmm', 'object', 'array', 'int[]', 'string[]', 'empty[]', alternatives joined by '|'.
 */

export type Check = (value: unknown, path: string) => string[];
export type Spec = Record<string, string | Check>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const SQL_DT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const SHORT_DT = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/;
const DDMMYYYY = /^\d{2}\.\d{2}\.\d{4}$/;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const ATOMS: Record<string, (v: unknown) => boolean> = {
  int: (v) => typeof v === 'number' && Number.isInteger(v),
  float: (v) => typeof v === 'number' && Number.isFinite(v),
  string: (v) => typeof v === 'string',
  '""': (v) => v === '',
  bool: (v) => typeof v === 'boolean',
  null: (v) => v === null,
  iso: (v) => typeof v === 'string' && ISO.test(v) && !Number.isNaN(Date.parse(v)),
  sqldt: (v) => typeof v === 'string' && SQL_DT.test(v),
  shortdt: (v) => typeof v === 'string' && SHORT_DT.test(v),
  date: (v) => typeof v === 'string' && DDMMYYYY.test(v),
  hhmm: (v) => typeof v === 'string' && HHMM.test(v),
  object: isPlainObject,
  array: Array.isArray,
  'empty[]': (v) => Array.isArray(v) && v.length === 0,
  'int[]': (v) => Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isInteger(x)),
  'string[]': (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
  'date[]': (v) => Array.isArray(v) && v.every((x) => typeof x === 'string' && DDMMYYYY.test(x)),
};

export const describeValue = (v: unknown) => (v === undefined ? 'undefined' : JSON.stringify(v)?.slice(0, 80));

function typeCheck(expr: string): Check {
  const alternatives = expr.split('|');
  for (const a of alternatives) if (!ATOMS[a]) throw new Error(`unknown type ${a}`);
  return (v, path) => (alternatives.some((a) => ATOMS[a](v)) ? [] : [`${path}: expected ${expr}, got ${describeValue(v)}`]);
}

/** One of the listed values (API.md enumerations). */
export const oneOf =
  (...values: unknown[]): Check =>
  (v, path) =>
    values.includes(v) ? [] : [`${path}: expected one of ${JSON.stringify(values)}, got ${describeValue(v)}`];

/** A nested object with its own exact spec. */
export const shape =
  (spec: Spec): Check =>
  (v, path) =>
    shapeErrors(v, spec, path);

/** An array whose every item passes `item`. */
export const arrayOf =
  (item: Check | string, opts: { length?: number } = {}): Check =>
  (v, path) => {
    if (!Array.isArray(v)) return [`${path}: expected array, got ${describeValue(v)}`];
    const errors: string[] = [];
    if (opts.length !== undefined && v.length !== opts.length) errors.push(`${path}: expected ${opts.length} items, got ${v.length}`);
    const check = typeof item === 'string' ? typeCheck(item) : item;
    v.forEach((x, i) => errors.push(...check(x, `${path}[${i}]`)));
    return errors;
  };

/** Both checks must pass. */
export const all =
  (...checks: (Check | string)[]): Check =>
  (v, path) =>
    checks.flatMap((c) => (typeof c === 'string' ? typeCheck(c) : c)(v, path));

/** Either check passes. */
export const either =
  (...checks: (Check | string)[]): Check =>
  (v, path) => {
    const results = checks.map((c) => (typeof c === 'string' ? typeCheck(c) : c)(v, path));
    return results.some((r) => r.length === 0) ? [] : results.flat();
  };

export function shapeErrors(obj: unknown, spec: Spec, path: string, optional: string[] = []): string[] {
  if (!isPlainObject(obj)) return [`${path}: expected object, got ${describeValue(obj)}`];
  const errors: string[] = [];
  for (const key of Object.keys(spec)) {
    if (!(key in obj)) {
      if (!optional.includes(key)) errors.push(`${path}.${key}: missing`);
      continue;
    }
    const c = spec[key];
    errors.push(...(typeof c === 'string' ? typeCheck(c) : c)(obj[key], `${path}.${key}`));
  }
  for (const key of Object.keys(obj)) if (!(key in spec)) errors.push(`${path}.${key}: unexpected field`);
  return errors;
}

/** Fails with every offending field named. */
export function expectShape(obj: unknown, spec: Spec, path = 'data', optional: string[] = []) {
  expect(shapeErrors(obj, spec, path, optional)).toEqual([]);
}

export function expectEach(items: unknown[], spec: Spec, path: string) {
  expect(items.flatMap((item, i) => shapeErrors(item, spec, `${path}[${i}]`))).toEqual([]);
}
