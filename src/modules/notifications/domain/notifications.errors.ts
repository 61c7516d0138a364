/** Error codes of the notifications domain. */
export const USER_NOT_FOUND = 'NOTIFICATION_USER_NOT_FOUND';
