import { errorCodes } from '../../../common/domain-error';

/** Error codes of the calls domain (calls and their status catalogue). */
export const CALL_ERRORS = errorCodes({
  /** Another call status has this code (the code the lead status catalogue uses for its own). */
  STATUS_CODE_TAKEN: 'STATUS_CODE_TAKEN',
});
