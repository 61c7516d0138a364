import { benchReadUnderConfigs } from './support/config-variants';

/**
 * What request timing costs on the hot path: the same authenticated read with METRICS_ENABLED
 * off and on. Baseline: the unauthenticated liveness probe, measured in the same run.
 */
export async function metricsBench(): Promise<void> {
  await benchReadUnderConfigs('metrics', '/v2/api-key/', [
    { label: 'with request metrics off', env: { METRICS_ENABLED: 'false' } },
    { label: 'with request metrics on', env: { METRICS_ENABLED: 'true' } },
  ]);
}
