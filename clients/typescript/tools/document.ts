import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from '../../../src/app.module';
import { createApp } from '../../../src/app.setup';
import { loadConfig } from '../../../src/config/app.config';

/**
 * The document the service serves at /docs-json, built without a database or a listening server:
 * the app is created in Nest's preview mode (no provider runs) and the document handed to Swagger is kept.
 */
export async function buildApiDocument(): Promise<OpenAPIObject> {
  const setup = SwaggerModule.setup.bind(SwaggerModule);
  let served: OpenAPIObject | (() => OpenAPIObject) | undefined;
  SwaggerModule.setup = (...args: Parameters<typeof SwaggerModule.setup>) => {
    served = args[2];
    return setup(...args);
  };
  try {
    const config = loadConfig({});
    const app = await createApp(AppModule.register({ config, databaseUrl: 'postgres://offline/none' }), { preview: true, logger: false });
    void app;
  } finally {
    SwaggerModule.setup = setup;
  }
  if (!served) throw new Error('the app set up no OpenAPI document');
  return typeof served === 'function' ? served() : served;
}
