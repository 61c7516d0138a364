import { INestApplication, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app.config';
import { ApiKeysService } from './api-keys.service';
import { SCOPES } from '../../common/auth-context';

/** The name API_KEY is registered under; a replaced one keeps it while its grace period runs. */
export const ENV_KEY_NAME = 'env:API_KEY';

/**
 * API_KEY registers that key with every scope (see ApiKeysService.registerEnvKey for rotation).
 * With the embedded database and no key at all, a development key is generated once and printed:
 * the only time it is shown. No other log line carries key material.
 */
export async function bootstrapApiKey(app: INestApplication, config: AppConfig, embedded: boolean): Promise<void> {
  const logger = new Logger('Auth');
  const keys = app.get(ApiKeysService);
  if (config.apiKey) {
    const state = await keys.registerEnvKey(ENV_KEY_NAME, config.apiKey, [...SCOPES], config.apiKeyRotationGraceHours);
    switch (state.kind) {
      case 'registered':
        logger.log('API key from API_KEY registered (scopes: api, admin, telephony)');
        if (state.previousStopsAt) {
          logger.log(`API_KEY changed: the previous API_KEY keeps working until ${state.previousStopsAt.toISOString()} (API_KEY_ROTATION_GRACE_HOURS)`);
        }
        return;
      case 'active':
        logger.log('API key from API_KEY is registered (scopes: api, admin, telephony)');
        return;
      case 'superseded':
        logger.warn(`the configured API_KEY was replaced by a newer API_KEY; it stops authenticating at ${state.stopsAt.toISOString()}`);
        return;
      case 'revoked':
        logger.warn('the configured API_KEY is revoked; it does not authenticate');
        return;
    }
  }
  if (embedded && (await keys.countActive()) === 0) {
    const { key } = await keys.create('development', [...SCOPES]);
    const banner = '='.repeat(72);
    logger.log(
      `\n${banner}\n  Development API key (shown once; all scopes):\n\n    ${key}\n\n` +
        `  Try: curl -H 'X-Api-Key: ${key}' http://localhost:${config.port}/v1/health/check/\n${banner}`,
    );
  }
}
