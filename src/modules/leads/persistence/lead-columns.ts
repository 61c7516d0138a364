import { type Assert, entityColumns, type SameKeys } from '../../../database/entity-columns';
import type { Lead } from '../domain/lead';
import type { NewLead } from '../domain/new-lead';
import { LeadEntity } from './lead.entity';

/** The `lead` table's columns as LeadEntity states them: the column lists of lead SQL come from here. */
export const LEAD_COLUMNS = entityColumns(LeadEntity);

/** Columns the domain Lead does not carry: dialing state and async-create bookkeeping. */
const NOT_IN_LEAD = ['messengerId', 'attemptCount', 'jobId', 'createdByJob', 'qualifiedAt', 'dialAfter'] as const;

/** The columns a Lead is read from (its `orderCode` is the order's). */
export const LEAD_READ_COLUMNS = LEAD_COLUMNS.except(NOT_IN_LEAD);

// The compiler keeps the domain shapes and the entity in step: a field of one is a column of the other.
type _LeadIsEntity = Assert<SameKeys<Exclude<keyof LeadEntity, (typeof NOT_IN_LEAD)[number]>, Exclude<keyof Lead, 'orderCode'>>>;
type _NewLeadIsEntity = Assert<SameKeys<keyof NewLead & keyof LeadEntity, keyof NewLead>>;
