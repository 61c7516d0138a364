import { applyDecorators } from '@nestjs/common';
import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { Optional } from './presence';

/** Validation of request DTO fields that many resources share (their OpenAPI docs stay at each field). */

/** A string that may be left out, at most `maxLength` characters (null refused). */
export const OptionalText = (maxLength: number) => applyDecorators(Optional(), IsString(), MaxLength(maxLength));

/** A boolean that may be left out (null refused). */
export const OptionalFlag = () => applyDecorators(Optional(), IsBoolean());
