import { errorCodes } from '../../../common/domain-error';

/** Error codes of the do-not-call lists. */
export const DNC_ERRORS = errorCodes({
  /** 403: removing an entry an opt-out on a call made needs the admin scope. */
  OPT_OUT_REMOVAL_NEEDS_ADMIN: 'DNC_OPT_OUT_REMOVAL_NEEDS_ADMIN',
});
