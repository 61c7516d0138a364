import { errorCodes } from '../../../common/domain-error';

/** Error codes of the leads domain (leads and their status catalogue). */
export const LEAD_ERRORS = errorCodes({
  /** The order already has its qualifiedLeadsPerDayLimit of qualified leads today. */
  QUALIFIED_LIMIT: 'QUALIFIED_LEADS_PER_DAY_LIMIT',
  /** Another lead status has this code. */
  STATUS_CODE_TAKEN: 'STATUS_CODE_TAKEN',
});
