import { ValidateBy, ValidationOptions } from 'class-validator';
import { normaliseSocialAId } from '../../domain/lead';

/** A positive integer id given as a JSON number or a numeric string (socialAId). */
export const IsPositiveIdLike = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isPositiveIdLike',
      validator: {
        validate: (v) => normaliseSocialAId(v) !== null,
        defaultMessage: (a) => `${a?.property} must be a positive integer (number or numeric string)`,
      },
    },
    options,
  );

/** Plain text or a JSON value (object/array are stored as their JSON text). */
export const IsTextOrJson = (maxLength: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isTextOrJson',
      validator: {
        validate: (v) => (typeof v === 'string' ? v.length <= maxLength : v !== null && typeof v === 'object' && JSON.stringify(v).length <= maxLength),
        defaultMessage: (a) => `${a?.property} must be a string or a JSON object/array of at most ${maxLength} characters`,
      },
    },
    options,
  );

/** An object (custom field id -> value); `[]` is accepted as an empty map. Contents are checked by the service. */
export const IsValuesMap = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isValuesMap',
      validator: {
        validate: (v) => v !== null && typeof v === 'object' && (!Array.isArray(v) || v.length === 0),
        defaultMessage: (a) => `${a?.property} must be an object of custom field id to value`,
      },
    },
    options,
  );

/** A JSON integer that JavaScript represents exactly, > 0 (messenger user ids exceed int32). */
export const IsPositiveSafeInt = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isPositiveSafeInt',
      validator: {
        validate: (v) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0,
        defaultMessage: (a) => `${a?.property} must be a positive integer`,
      },
    },
    options,
  );
