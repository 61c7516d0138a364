import type { EntityColumn } from '../../../database/entity-columns';
import type { CallRow } from '../../calls/domain/call';
import type { CallEntity } from '../../calls/persistence/call.entity';
import { CALL_ROW_COLUMNS } from '../../calls/persistence/calls.repository';
import type { Lead } from '../../leads/domain/lead';
import { LEAD_READ_COLUMNS } from '../../leads/persistence/lead-columns';
import type { LeadEntity } from '../../leads/persistence/lead.entity';
import { snapshotDate } from '../domain/event';

/** A row as the triggers store it: `to_jsonb(row)`, column names as keys, bigints as text. */
export type RowSnapshot = Record<string, unknown>;

/** A snapshot value as its property holds it; a column the snapshot predates reads as null. */
function readValue<E>(c: EntityColumn<E>, v: unknown): unknown {
  if (c.kind === 'boolean') return v === true;
  if (c.kind === 'timestamp') return snapshotDate(v) ?? (c.nullable ? null : new Date(0));
  if (v === null || v === undefined) return c.kind === 'json' && !c.nullable ? {} : null;
  if (c.kind === 'number') return Number(v);
  if (c.kind === 'text' || c.kind === 'bigint') return typeof v === 'string' ? v : JSON.stringify(v);
  return v;
}

function readSnapshot<T, E>(columns: readonly EntityColumn<E>[], row: RowSnapshot): T {
  return Object.fromEntries(columns.map((c) => [c.propertyName, readValue(c, row[c.databaseName])])) as T;
}

/** The lead domain shape of a `lead` row snapshot; `orderCode` is looked up apart (the row has the order id). */
export function leadFromSnapshot(row: RowSnapshot, orderCode: string): Lead {
  return { ...readSnapshot<Omit<Lead, 'orderCode'>, LeadEntity>(LEAD_READ_COLUMNS.list, row), orderCode };
}

/** The call shape of a `call` row snapshot. */
export function callFromSnapshot(row: RowSnapshot): CallRow {
  return readSnapshot<CallRow, CallEntity>(CALL_ROW_COLUMNS.list, row);
}
