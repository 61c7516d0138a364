import { benchReadUnderConfigs } from './support/config-variants';

/**
 * What the rate limiter costs: the same authenticated read with the limiter off and on (one
 * upsert into the shared PostgreSQL counter per request, with a budget too large to refuse).
 * Baseline: the unauthenticated liveness probe, measured in the same run.
 */
export async function rateLimitBench(): Promise<void> {
  await benchReadUnderConfigs('rate-limit', '/v2/api-key/', [
    { label: 'with rate limiting off', env: { RATE_LIMIT_REQUESTS: '0' } },
    { label: 'with rate limiting on', env: { RATE_LIMIT_REQUESTS: '1000000', RATE_LIMIT_WINDOW_SECONDS: '86400' } },
  ]);
}
