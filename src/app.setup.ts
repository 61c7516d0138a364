import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Response } from 'express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { parse as parseQuery } from 'qs';
import { checkInputSafety, deferBodyErrors } from './common/input-checks';
import { createValidationPipe } from './common/validation';
import { type ObservedRequest, RequestObserverMiddleware } from './modules/observability/http/request-observer.middleware';

export const BODY_LIMIT = '1mb';

/**
 * qs understands `ids[]=1&ids[]=2` and `createdAt[0]=...`; bounded to keep hostile query strings cheap.
 * An indexed array with gaps (`createdAt[1]` alone) becomes an object keyed by index: Nest's
 * ValidationPipe closes array gaps, which would turn a lone end bound into a start.
 * Arrays are never filtered position by position: `createdAt[0]=&createdAt[1]=X` keeps X as [1].
 */
export function parseQueryString(q: string): Record<string, unknown> {
  const parsed = parseQuery(q, { arrayLimit: 100, depth: 2, parameterLimit: 200, allowSparse: true });
  for (const [key, value] of Object.entries(parsed)) {
    // An empty parameter (`limit=`, `isActive=`, `ids[]=`), as form-built query strings send
    // them, is the same as an absent one, on every endpoint.
    if (value === '' || (Array.isArray(value) && value.length > 0 && value.every((v) => v === ''))) delete parsed[key];
    else if (Array.isArray(value) && Object.keys(value).length !== value.length) parsed[key] = { ...value };
  }
  return parsed;
}

/**
 * Everything about the HTTP surface that is not a module: body parsing, query parsing,
 * validation, OpenAPI. Shared by main.ts and the e2e tests so they exercise the same app.
 */
export function configureApp(app: NestExpressApplication): INestApplication {
  // First of all: request id, timing and access log see every request, also those the body parser refuses.
  const observer = app.get(RequestObserverMiddleware);
  app.use((req: ObservedRequest, res: Response, next: NextFunction) => observer.use(req, res, next));
  // JSON bodies up to 1 MiB; a request without Content-Type is read as JSON too (API.md: all requests are JSON).
  app.useBodyParser('json', { limit: BODY_LIMIT, type: (req: { headers: Record<string, unknown> }) => !req.headers['content-type'] || /json/i.test(String(req.headers['content-type'])) });
  // Input refused here is answered after authentication (see input-checks.ts).
  app.use(deferBodyErrors);
  app.use(checkInputSafety);
  app.set('query parser', parseQueryString);
  app.set('trust proxy', true);
  app.disable('x-powered-by');
  app.useGlobalPipes(createValidationPipe());

  const doc = new DocumentBuilder()
    .setTitle('Call-center integration API')
    .setDescription(
      'Orders, leads, calls, users, agent groups, custom fields, call attempt groups, notifications and health. ' +
        'Every response is the envelope {success, message, data}. Authenticate with the X-Api-Key header. ' +
        'When the deployment sets RATE_LIMIT_REQUESTS, each key has a request budget per window: responses carry ' +
        'X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset, and a spent budget answers 429 with Retry-After.',
    )
    .setVersion('1.0')
    .addApiKey({ type: 'apiKey', name: 'X-Api-Key', in: 'header' }, 'api-key')
    .addSecurityRequirements('api-key')
    .build();
  const document = SwaggerModule.createDocument(app, doc);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
  return app;
}
