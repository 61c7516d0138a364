import { DomainError, errorCodes } from '../../../common/domain-error';

/** Error codes of the orders domain. */
export const ORDER_ERRORS = errorCodes({
  /** Another order of the same client (or of no client, for an order of none) already has the code sent (or, rarely, the one generated). */
  CODE_TAKEN: 'ORDER_CODE_TAKEN',
  /** No free generated code after the retries: the client retries or sends a code. */
  CODE_BUSY: 'ORDER_CODE_BUSY',
});

/** 409: the order code is another order's (`code` when known: a unique violation does not say it). */
export function orderCodeTaken(code?: string): DomainError {
  return DomainError.conflict(ORDER_ERRORS.CODE_TAKEN, code === undefined ? 'Order code is already taken' : `Order code ${code} is already taken`);
}
