import { SetMetadata } from '@nestjs/common';
import type { Scope } from '../../../common/auth-context';

export const PUBLIC_ROUTE = 'auth:public';
export const REQUIRED_SCOPE = 'auth:scope';

/** No key needed (container probes, API docs). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The scope a route needs; routes without it need `api`. */
export const RequireScope = (scope: Scope) => SetMetadata(REQUIRED_SCOPE, scope);
