import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { DomainError } from './domain-error';

export const INT32_MAX = 2_147_483_647;

/** A positive PostgreSQL integer, or null. */
export function parsePositiveInt(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 && value <= INT32_MAX ? value : null;
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const n = Number(value);
  return n <= INT32_MAX ? n : null;
}

/** Path ids: positive int32 or 400 (never a 500 from the database). */
@Injectable()
export class IdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const id = parsePositiveInt(value);
    if (id === null) throw DomainError.invalidField(metadata.data ?? 'id', 'must be a positive integer');
    return id;
  }
}
