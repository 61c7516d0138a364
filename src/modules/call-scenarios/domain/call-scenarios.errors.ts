import { errorCodes } from '../../../common/domain-error';

/** Error codes of the call scenarios domain. */
export const CALL_SCENARIO_ERRORS = errorCodes({
  NOT_FOUND: 'CALL_SCENARIO_NOT_FOUND',
});
