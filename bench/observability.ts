import { benchReadUnderConfigs } from './support/config-variants';

/**
 * What watching the service costs on the hot path: the same authenticated read with request
 * metrics and the access log off, metrics on, and both on (log lines formatted and written to
 * /dev/null). Baseline: the unauthenticated liveness probe, measured in the same run.
 */
export async function observabilityBench(): Promise<void> {
  await benchReadUnderConfigs('observability', '/v2/api-key/', [
    { label: 'metrics off, access log off', env: { METRICS_ENABLED: 'false', ACCESS_LOG: 'false' } },
    { label: 'metrics on, access log off', env: { METRICS_ENABLED: 'true', ACCESS_LOG: 'false' } },
    { label: 'metrics on, access log on', env: { METRICS_ENABLED: 'true', ACCESS_LOG: 'true' }, infoLogs: true },
  ]);
}
