import { ValidateIf, ValidationOptions } from 'class-validator';

/**
 * IsOptional lets `null` through as if absent, which would let `{"isActive": null}` reach a NOT NULL column. `Optional()`: may be
 * left out, when present must pass the other rules; `Nullable()`: may also be `null` ("clear it"). Absent fields stay
 * `undefined`, so partial updates tell "not sent" from "set to null".
 */
export const Optional = (options?: ValidationOptions) => ValidateIf((_o, value) => value !== undefined, options);

export const Nullable = (options?: ValidationOptions) => ValidateIf((_o, value) => value !== undefined && value !== null, options);
