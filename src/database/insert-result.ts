import type { InsertResult } from 'typeorm';

function idOf(row: unknown): number | null {
  if (typeof row !== 'object' || row === null || !('id' in row)) return null;
  const { id } = row;
  return typeof id === 'number' ? id : null;
}

/** The id TypeORM read back for the one row an `insert` wrote (integer serial keys). */
export function insertedId(result: InsertResult): number {
  const id = idOf(result.identifiers[0]);
  if (id === null) throw new Error('the insert returned no id');
  return id;
}

/** The id of the row an `INSERT ... ON CONFLICT DO NOTHING RETURNING id` wrote; null when the conflict skipped it. */
export function returnedId(result: InsertResult): number | null {
  const rows: unknown = result.raw;
  return Array.isArray(rows) ? idOf(rows[0]) : null;
}
