import { ValidateIf, ValidationOptions } from 'class-validator';

/**
 * class-validator's IsOptional lets `null` through as if the field were absent, which would let
 * `{"isActive": null}` reach a NOT NULL column. These two make the intent explicit:
 *
 * - `Optional()`: the field may be left out; when present it must satisfy the other rules (null fails them).
 * - `Nullable()`: the field may be left out or be `null` (meaning "clear it"); any other value is validated.
 *
 * Absent fields stay `undefined` on the DTO, so partial updates can tell "not sent" from "set to null".
 */
export const Optional = (options?: ValidationOptions) => ValidateIf((_o, value) => value !== undefined, options);

export const Nullable = (options?: ValidationOptions) => ValidateIf((_o, value) => value !== undefined && value !== null, options);
