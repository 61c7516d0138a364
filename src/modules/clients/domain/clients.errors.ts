import { errorCodes } from '../../../common/domain-error';

/** Error codes of the clients domain. */
export const CLIENT_ERRORS = errorCodes({
  NOT_FOUND: 'CLIENT_NOT_FOUND',
  /** Client names are unique, case-insensitively. */
  NAME_TAKEN: 'CLIENT_NAME_TAKEN',
});
