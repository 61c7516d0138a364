import { benchReadUnderConfigs } from './support/config-variants';

/**
 * The API-key cache on the hot path: the same authenticated read with the 5 s cache and with none
 * (every request verifies the key in PostgreSQL). Baseline: the unauthenticated liveness probe.
 */
export async function authCacheBench(): Promise<void> {
  await benchReadUnderConfigs('auth-cache', '/v2/api-key/', [
    { label: 'with key cache 5 s', env: { API_KEY_CACHE_TTL_MS: '5000' } },
    { label: 'with key cache off', env: { API_KEY_CACHE_TTL_MS: '0' } },
  ]);
}
