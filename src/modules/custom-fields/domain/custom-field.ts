import type { FieldError } from '../../../common/domain-error';
import type { CustomFieldType, Essence } from './custom-value';

/**
 * Rules of a custom field definition (values: custom-value.ts). Only `select` and `multiselect` have options (`params`, at least
 * one; codes 1..64 of a-z, 0-9, `_`, `-`, unique); other types refuse a non-empty list rather than drop it, so a wrong type shows
 * at once. `type` and `essence` are fixed at creation: stored values were validated against them.
 */
export const OPTION_CODE = /^[a-z0-9_-]{1,64}$/;
export const DEFAULT_SORT = 100;

export interface OptionInput {
  code: string;
  title: string;
  sort?: number;
}

export interface CustomFieldOption {
  code: string;
  title: string;
  sort: number;
}

/** A custom field as stored and presented, with its options. */
export interface CustomFieldRow {
  id: number;
  title: string;
  type: CustomFieldType;
  essence: Essence;
  sort: number;
  options: CustomFieldOption[];
}

export function hasOptions(type: CustomFieldType): boolean {
  return type === 'select' || type === 'multiselect';
}

/**
 * Checks the options sent for a field of `type` and returns them with defaults applied
 * (sort 100, like the column). `params` undefined means "not sent".
 */
export function validateOptions(
  type: CustomFieldType,
  params: readonly OptionInput[] | undefined,
  required: boolean,
): { ok: true; value: CustomFieldOption[] } | { ok: false; errors: FieldError[] } {
  if (!hasOptions(type)) {
    if (params && params.length > 0) {
      return { ok: false, errors: [{ field: 'params', message: `only select and multiselect fields have options, not ${type}` }] };
    }
    return { ok: true, value: [] };
  }
  if (params === undefined && !required) return { ok: true, value: [] };
  if (!params || params.length === 0) {
    return { ok: false, errors: [{ field: 'params', message: `a ${type} field needs at least one option` }] };
  }
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  params.forEach((p, i) => {
    if (!OPTION_CODE.test(p.code)) errors.push({ field: `params.${i}.code`, message: 'must be 1-64 characters a-z, 0-9, _ or -' });
    else if (seen.has(p.code)) errors.push({ field: `params.${i}.code`, message: `duplicate option code ${p.code}` });
    seen.add(p.code);
  });
  if (errors.length) return { ok: false, errors };
  return { ok: true, value: params.map((p) => ({ code: p.code, title: p.title, sort: p.sort ?? DEFAULT_SORT })) };
}
