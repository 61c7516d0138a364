import { errorCodes } from '../../../common/domain-error';

/** Error codes of the SIP endpoints domain. */
export const SIP_ENDPOINT_ERRORS = errorCodes({
  NOT_FOUND: 'SIP_ENDPOINT_NOT_FOUND',
  /** Virtual numbers are unique. */
  NUMBER_TAKEN: 'SIP_ENDPOINT_NUMBER_TAKEN',
  /** Not a valid E.164 number. */
  INVALID_NUMBER: 'SIP_ENDPOINT_INVALID_NUMBER',
});
