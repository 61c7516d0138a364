import { errorCodes } from '../../../common/domain-error';

/** Error codes of the users domain. */
export const USER_ERRORS = errorCodes({
  NOT_FOUND: 'USER_NOT_FOUND',
  /** E-mails are unique, case-insensitively. */
  EMAIL_TAKEN: 'USER_EMAIL_TAKEN',
});
