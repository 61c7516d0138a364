import { DateTime } from 'luxon';
import type { FieldError } from '../../../common/domain-error';

export const CUSTOM_FIELD_TYPES = ['string', 'int', 'float', 'date', 'datetime', 'bool', 'select', 'multiselect'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
export const ESSENCES = ['leads', 'orders'] as const;
export type Essence = (typeof ESSENCES)[number];

/** What the validator needs to know of a field. */
export interface CustomFieldDefinition {
  id: number;
  type: CustomFieldType;
  essence: Essence;
  optionCodes: string[];
}

export type CustomValues = Record<string, string | number | boolean>;

type Check = { ok: true; value: string | number | boolean } | { ok: false; message: string };

/** A checked `customValues` map: the normalised map, or every error (callers merge them with their own). */
export type CustomValuesCheck = { ok: true; value: CustomValues } | { ok: false; errors: FieldError[] };

const INT32 = 2_147_483_647;

/**
 * Values per `customValues` map: one per custom field, and no installation needs more than 200
 * fields per entity (the demo has eight). Also the DTOs' cap (a 400 before any lookup).
 */
export const MAX_CUSTOM_VALUES = 200;

/** One value against one field's type. Values are stored normalised (dates ISO, numbers as numbers). */
export function checkCustomValue(field: CustomFieldDefinition, value: unknown): Check {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' && value.length <= 10_000 ? { ok: true, value } : { ok: false, message: 'must be a string' };
    case 'int': {
      const n = typeof value === 'string' && /^-?\d{1,10}$/.test(value) ? Number(value) : value;
      return typeof n === 'number' && Number.isInteger(n) && Math.abs(n) <= INT32 ? { ok: true, value: n } : { ok: false, message: 'must be an integer' };
    }
    case 'float': {
      const n = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
      return typeof n === 'number' && Number.isFinite(n) ? { ok: true, value: n } : { ok: false, message: 'must be a number' };
    }
    case 'bool':
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'true' || value === '1' || value === 1) return { ok: true, value: true };
      if (value === 'false' || value === '0' || value === 0) return { ok: true, value: false };
      return { ok: false, message: 'must be a boolean' };
    case 'date': {
      if (typeof value !== 'string') return { ok: false, message: 'must be a date (yyyy-mm-dd or dd.mm.yyyy)' };
      const d = [DateTime.fromISO(value, { zone: 'utc' }), DateTime.fromFormat(value, 'dd.MM.yyyy', { zone: 'utc' })].find((x) => x.isValid);
      return d ? { ok: true, value: d.toISODate() } : { ok: false, message: 'must be a date (yyyy-mm-dd or dd.mm.yyyy)' };
    }
    case 'datetime': {
      if (typeof value !== 'string') return { ok: false, message: 'must be an ISO 8601 date-time' };
      const d = DateTime.fromISO(value, { zone: 'utc', setZone: true });
      return d.isValid ? { ok: true, value: d.toUTC().toISO({ suppressMilliseconds: true }) } : { ok: false, message: 'must be an ISO 8601 date-time' };
    }
    case 'select':
      return typeof value === 'string' && field.optionCodes.includes(value)
        ? { ok: true, value }
        : { ok: false, message: `must be one of: ${field.optionCodes.join(', ')}` };
    case 'multiselect': {
      if (typeof value !== 'string') return { ok: false, message: 'must be a comma-separated string of option codes' };
      const codes = value
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      const unknown = codes.filter((c) => !field.optionCodes.includes(c));
      if (unknown.length > 0) return { ok: false, message: `unknown option(s): ${unknown.join(', ')}` };
      return { ok: true, value: [...new Set(codes)].join(',') };
    }
  }
}

/**
 * Validates a `customValues` map for one essence: every key must name an existing field of that
 * essence and every value must match the field's type. Returns the normalised map or every error.
 */
export function validateCustomValues(
  input: unknown,
  essence: Essence,
  fields: ReadonlyMap<number, CustomFieldDefinition>,
  path = 'customValues',
): CustomValuesCheck {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    // An empty array is how PHP-style clients send an empty map.
    if (Array.isArray(input) && input.length === 0) return { ok: true, value: {} };
    return { ok: false, errors: [{ field: path, message: 'must be an object of custom field id to value' }] };
  }
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length > MAX_CUSTOM_VALUES) return { ok: false, errors: [{ field: path, message: `must have at most ${MAX_CUSTOM_VALUES} values` }] };
  const errors: FieldError[] = [];
  const value: CustomValues = {};
  for (const [key, raw] of entries) {
    const field = /^[1-9]\d{0,9}$/.test(key) ? fields.get(Number(key)) : undefined;
    if (!field) {
      errors.push({ field: `${path}.${key}`, message: 'no such custom field' });
      continue;
    }
    if (field.essence !== essence) {
      errors.push({ field: `${path}.${key}`, message: `custom field belongs to ${field.essence}, not ${essence}` });
      continue;
    }
    const checked = checkCustomValue(field, raw);
    if (checked.ok) value[key] = checked.value;
    else errors.push({ field: `${path}.${key}`, message: checked.message });
  }
  return errors.length ? { ok: false, errors } : { ok: true, value };
}

/** Ids a customValues input refers to, for loading just those definitions (none for a map validateCustomValues refuses by size). */
export function referencedFieldIds(input: unknown): number[] {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return [];
  const keys = Object.keys(input);
  if (keys.length > MAX_CUSTOM_VALUES) return [];
  return keys.filter((k) => /^[1-9]\d{0,9}$/.test(k) && Number(k) <= INT32).map(Number);
}
