import { errorCodes } from '../../../common/domain-error';

/** Error codes of the event feed. */
export const EVENT_ERRORS = errorCodes({
  /** 410: the events asked for were deleted by retention; the client resynchronises. */
  EXPIRED: 'EVENTS_EXPIRED',
});
