import { applyDecorators } from '@nestjs/common';
import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { Optional } from './presence';

/** Validation of request DTO fields that many resources share (their OpenAPI docs stay at each field). */

/** A string that may be left out, at most `maxLength` characters (null refused). */
export const OptionalText = (maxLength: number) => applyDecorators(Optional(), IsString(), MaxLength(maxLength));

/** A boolean that may be left out (null refused). */
export const OptionalFlag = () => applyDecorators(Optional(), IsBoolean());

/**
 * The description of an optional request field that a create fills when it is left out (an update
 * keeps the stored value). Said in words, not with `default`: openapi-typescript (default settings)
 * makes a field with a default required, and on an update a default would claim that leaving the
 * field out resets it.
 */
export const whenLeftOut = (value: unknown, description?: string): string =>
  `${description ? `${description}. ` : ''}Left out of a create: ${JSON.stringify(value)}.`;
