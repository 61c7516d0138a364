import { errorCodes } from '../../../common/domain-error';

/** Error codes of the call attempt groups domain. */
export const CALL_ATTEMPT_GROUP_ERRORS = errorCodes({
  NOT_FOUND: 'CALL_ATTEMPT_GROUP_NOT_FOUND',
  /** There is always exactly one default group: it can be moved, not removed. */
  DEFAULT_REQUIRED: 'CALL_ATTEMPT_GROUP_DEFAULT_REQUIRED',
});
