import type { DynamicModule, NestApplicationOptions } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, RequestHandler, Response } from 'express';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { APP_CONFIG, type AppConfig } from './config/app.config';
import { EnvelopeExpressAdapter } from './common/envelope-express-adapter';
import { bodyLimitFor, distinctBodyLimits, formatBytes } from './common/body-limits';
import { checkInputSafety, deferBodyErrors, MAX_ARRAY_ITEMS, MAX_DEPTH, MAX_OBJECT_KEYS, MAX_VALUES } from './common/input-checks';
import { MAX_IDS_PER_FILTER, parseQueryString, QUERY_PARAMETER_LIMIT } from './common/query';
import { createValidationPipe } from './common/validation';
import { type ObservedRequest, RequestObserverMiddleware } from './modules/observability/http/request-observer.middleware';

type BodyParserRequest = { headers: Record<string, unknown>; url?: string };

const isJsonRequest = (req: BodyParserRequest) => {
  const type = req.headers['content-type'];
  return !type || (typeof type === 'string' && /json/i.test(type));
};
const pathOf = (req: BodyParserRequest) => (req.url ?? '/').split('?')[0];
const BODY_LIMIT = Symbol('bodyLimit');
/** The route's body limit, looked up once per request (each parser asks). */
const bodyLimitOf = (req: BodyParserRequest & { [BODY_LIMIT]?: number }) => (req[BODY_LIMIT] ??= bodyLimitFor(pathOf(req)));

const LIMITS_DESCRIPTION =
  'Limits: each route reads a body up to its own limit (stated on the operation; 413 above it). Before anything else ' +
  `every body and query is refused with 400 naming the field when an array has more than ${MAX_ARRAY_ITEMS} items, an object ` +
  `more than ${MAX_OBJECT_KEYS} keys, the whole more than ${MAX_VALUES} values or ${MAX_DEPTH} levels of nesting; fields have ` +
  `their own caps (maxItems, maxLength, maxProperties below). A query string takes at most ${QUERY_PARAMETER_LIMIT} parameters ` +
  `and ${MAX_IDS_PER_FILTER} ids per id filter (400 past either). Unknown body fields are ignored but count against the caps.`;

/** Each operation with a body states its route's limit, from the same table the body parser uses. */
function documentBodyLimits(document: OpenAPIObject): void {
  for (const [path, ops] of Object.entries(document.paths)) {
    for (const op of [ops.post, ops.put, ops.patch]) {
      if (!op?.requestBody) continue;
      const note = `Body limit: ${formatBytes(bodyLimitFor(path))} (413 above it).`;
      op.description = op.description ? `${op.description}\n\n${note}` : note;
    }
  }
}

/**
 * The application as main.ts, the e2e tests and the benches run it: Nest on Express with the
 * success envelope (EnvelopeExpressAdapter), and the HTTP surface of configureApp.
 */
export async function createApp(module: DynamicModule, options: Omit<NestApplicationOptions, 'bodyParser'> = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module, new EnvelopeExpressAdapter(), { ...options, bodyParser: false });
  configureApp(app);
  return app;
}

/** Everything about the HTTP surface that is not a module: headers, body and query parsing, validation, OpenAPI. */
function configureApp(app: NestExpressApplication): void {
  app.use(securityHeaders());
  // CORS only for the origins CORS_ORIGINS lists: integrators call from servers, not browsers.
  const { corsOrigins } = app.get<AppConfig>(APP_CONFIG);
  if (corsOrigins.length > 0) app.enableCors({ origin: corsOrigins });
  // First of all: request id, timing and access log see every request, also those the body parser refuses.
  const observer = app.get(RequestObserverMiddleware);
  app.use((req: ObservedRequest, res: Response, next: NextFunction) => observer.use(req, res, next));
  useJsonBodyParsers(app);
  // Input refused here is answered after authentication (see input-checks.ts).
  app.use(deferBodyErrors);
  app.use(checkInputSafety);
  app.set('query parser', parseQueryString);
  app.set('trust proxy', true);
  app.disable('x-powered-by');
  app.useGlobalPipes(createValidationPipe());
  serveApiDocs(app);
}

/**
 * Security headers on every response, errors and /docs included. Swagger UI's page has inline
 * styles (its scripts are files of its own); no upgrade-insecure-requests, as an instance
 * reached over plain http (a container on a LAN address) would then break its own docs page.
 */
function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      directives: { 'style-src': ["'self'", "'unsafe-inline'"], 'img-src': ["'self'", 'data:'], 'upgrade-insecure-requests': null },
    },
  });
}

/**
 * JSON bodies up to the route's limit (body-limits.ts): one parser per distinct limit, each
 * taking only the requests whose route has its limit. A request without Content-Type is read
 * as JSON too (API.md: all requests are JSON).
 */
function useJsonBodyParsers(app: NestExpressApplication): void {
  for (const limit of distinctBodyLimits()) {
    app.useBodyParser('json', { limit, type: (req: BodyParserRequest) => isJsonRequest(req) && bodyLimitOf(req) === limit });
  }
}

/** The OpenAPI document at /docs-json and Swagger UI at /docs. */
function serveApiDocs(app: NestExpressApplication): void {
  const document = SwaggerModule.createDocument(app, apiDescription());
  documentBodyLimits(document);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}

/** The document's title, description, tags and security scheme; the operations come from the controllers. */
function apiDescription(): Omit<OpenAPIObject, 'paths'> {
  return (
    new DocumentBuilder()
      .setTitle('Call-center integration API')
      .setDescription(
        'Orders, leads, calls, users, agent groups, custom fields, call attempt groups, notifications and health. ' +
          'Every response is the envelope {success, message, data}. Authenticate with the X-Api-Key header. ' +
          'When the deployment sets RATE_LIMIT_REQUESTS, each key has a request budget per window: responses carry ' +
          'X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset, and a spent budget answers 429 with Retry-After. ' +
          LIMITS_DESCRIPTION,
      )
      .setVersion('1.0')
      // Groups in the order an integrator reads them; administration of the platform last.
      .addTag('orders', 'Dialing campaigns: the order a lead belongs to')
      .addTag('leads (v2)', 'The people to call: create (sync or async), change, read, list')
      .addTag('leads (v1)', 'The older lead interface: snake_case in, UF_ fields out')
      .addTag('calls', 'Calls made for leads; telephony records finished calls')
      .addTag('events', 'What changed, in commit order: the event feed an integrator follows (incremental sync)')
      .addTag('users', 'Agents and staff')
      .addTag('agent groups', 'Groups of agents an order dials with')
      .addTag('custom fields', 'The fields of customValues on leads and orders')
      .addTag('call attempt groups', 'Redial intervals')
      .addTag('notifications (v1)', 'Messages to users (inbox, e-mail, messenger)')
      .addTag('status catalogues', 'Lead and call statuses (statusId)')
      .addTag('health', 'Probes, component health and metrics')
      .addTag('management: clients', 'The businesses orders belong to; a client key reaches only its client')
      .addTag('management: users')
      .addTag('management: agent groups')
      .addTag('management: custom fields')
      .addTag('management: call attempt groups')
      .addTag('management: call scenarios')
      .addTag('management: sip endpoints')
      .addTag('management: notifications')
      .addTag('management: api keys')
      .addApiKey({ type: 'apiKey', name: 'X-Api-Key', in: 'header' }, 'api-key')
      .addSecurityRequirements('api-key')
      .build()
  );
}
