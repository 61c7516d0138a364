import { errorCodes } from '../../../common/domain-error';

/** Error codes of API-key authentication. */
export const AUTH_ERRORS = errorCodes({
  /** No X-Api-Key header, or one that names no active key. */
  API_KEY_INVALID: 'API_KEY_INVALID',
  /** The key lacks the scope the route requires. */
  API_KEY_SCOPE: 'API_KEY_SCOPE',
  /** Active keys have unique names. */
  API_KEY_NAME_TAKEN: 'API_KEY_NAME_TAKEN',
  /** A client key on a route that reaches every client, or that declares no isolation rule. */
  CLIENT_KEY_FORBIDDEN: 'CLIENT_KEY_FORBIDDEN',
});
