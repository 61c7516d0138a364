import { applyDecorators } from '@nestjs/common';
import { ApiHideProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow } from 'class-validator';
import { DateTime } from 'luxon';
import { DomainError, FieldError } from './domain-error';

export interface DateRange {
  from?: Date;
  to?: Date;
}

// Extended (2026-11-22) or basic (20261122) ISO 8601 date without a time.
const DATE_ONLY = /^\d{4}-?\d{2}-?\d{2}$/;

// A date-time whose `+hh:mm` offset arrived as ` hh:mm`: in a query string an unencoded `+` means a
// space, and many HTTP clients send it unencoded. Only a space right after the time, followed by
// an offset, is read back as `+`.
const PLUS_AS_SPACE = /^(\d{4}-?\d{2}-?\d{2}T\d{2}(?::?\d{2}(?::?\d{2}(?:[.,]\d+)?)?)?) (\d{2}(?::?\d{2})?)$/;

/** An ISO 8601 bound; a date without time is the start of that UTC day, or (`end`) its last millisecond. */
export function parseBound(value: unknown, end: boolean): Date | null {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 64) return null;
  const text = value.trim().replace(PLUS_AS_SPACE, '$1+$2');
  const dt = DateTime.fromISO(text, { zone: 'utc', setZone: true });
  if (!dt.isValid || dt.year < 1000 || dt.year > 9999) return null;
  return (end && DATE_ONLY.test(text) ? dt.endOf('day') : dt).toJSDate();
}

/**
 * `createdAt[0]` / `createdAt[1]`: both optional and inclusive. qs gives an array (sparse when only
 * [1] is sent), an object for other keys, or a string for a bare `createdAt=`.
 */
export function parseCreatedAtRange(raw: unknown, name = 'createdAt'): DateRange {
  if (raw === undefined) return {};
  const parts: Record<string, unknown> = raw !== null && typeof raw === 'object' ? { ...raw } : { 0: raw };
  const errors: FieldError[] = [];
  const read = (i: 0 | 1) => {
    const v = parts[i];
    if (v === undefined || v === '') return undefined;
    const d = parseBound(v, i === 1);
    if (!d) errors.push({ field: `${name}[${i}]`, message: 'must be an ISO 8601 date or date-time' });
    return d ?? undefined;
  };
  const from = read(0);
  const to = read(1);
  for (const key of Object.keys(parts)) {
    if (key !== '0' && key !== '1') errors.push({ field: `${name}[${key}]`, message: `only ${name}[0] and ${name}[1] are accepted` });
  }
  if (from && to && from > to) errors.push({ field: `${name}[1]`, message: `must not be before ${name}[0]` });
  if (errors.length) throw DomainError.validation(errors);
  return { from, to };
}

/**
 * A `createdAt[0]`/`createdAt[1]` query property, parsed into a DateRange. Reads the raw qs value:
 * class-transformer would compact a sparse array and turn a lone end bound into a start.
 */
export const DateRangeQuery = () =>
  applyDecorators(
    ApiHideProperty(),
    Allow(),
    Transform(({ obj, key }) => parseCreatedAtRange((obj as Record<string, unknown>)[key], key)),
  );
