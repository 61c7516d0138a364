import { errorCodes } from '../../../common/domain-error';

/** Error codes of the dialer's claims. */
export const DIALER_ERRORS = errorCodes({
  /** 409: a call names a claim token that is not a live claim of its lead (expired, ended, or another lead's). */
  CLAIM_NOT_LIVE: 'DIALER_CLAIM_NOT_LIVE',
});
