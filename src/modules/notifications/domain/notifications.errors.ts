import { errorCodes } from '../../../common/domain-error';

/** Error codes of the notifications domain. */
export const NOTIFICATION_ERRORS = errorCodes({
  /** The user a notification is for, or whose notifications are listed, does not exist. */
  USER_NOT_FOUND: 'NOTIFICATION_USER_NOT_FOUND',
});
