import { errorCodes } from '../../../common/domain-error';

/** Error codes of the webhooks domain. */
export const WEBHOOK_ERRORS = errorCodes({
  /** A test delivery to a webhook that is switched off. */
  INACTIVE: 'WEBHOOK_INACTIVE',
});
