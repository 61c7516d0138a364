import { errorCodes } from '../../../common/domain-error';

/** Error codes of the per-key rate limit. */
export const RATE_LIMIT_ERRORS = errorCodes({
  /** The key spent its budget for the window; Retry-After says when to come back. */
  RATE_LIMITED: 'RATE_LIMITED',
});
