import { INestApplication, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app.config';
import { ApiKeysService } from './api-keys.service';
import { SCOPES } from './domain/api-key';

/**
 * API_KEY registers that key with every scope (idempotent). With the embedded database and no key
 * at all, a development key is generated once and printed: the only time it is shown.
 */
export async function bootstrapApiKey(app: INestApplication, config: AppConfig, embedded: boolean): Promise<void> {
  const logger = new Logger('Auth');
  const keys = app.get(ApiKeysService);
  keys.cacheTtlMs = config.apiKeyCacheTtlMs;
  if (config.apiKey) {
    await keys.register('env:API_KEY', config.apiKey, [...SCOPES]);
    logger.log('API key from API_KEY registered (scopes: api, admin, telephony)');
    return;
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
