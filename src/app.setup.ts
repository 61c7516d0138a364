import type { Server } from 'node:http';
import type { DynamicModule, NestApplicationOptions } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { APP_CONFIG, type AppConfig } from './config/app.config';
import { EnvelopeExpressAdapter } from './common/envelope-express-adapter';
import { bodyLimitFor, distinctBodyLimits } from './common/body-limits';
import { checkInputSafety, deferBodyErrors, readsAsJson, refuseNonJsonBody } from './common/input-checks';
import { parseQueryString } from './common/query';
import { revalidateOnNoCache } from './common/conditional-get';
import { serveApiDocs } from './api-document';
import { createValidationPipe } from './common/validation';
import { type ObservedRequest, RequestObserverMiddleware } from './modules/observability/http/request-observer.middleware';

type BodyParserRequest = { headers: Record<string, unknown>; url?: string };

const pathOf = (req: BodyParserRequest) => (req.url ?? '/').split('?')[0];
const BODY_LIMIT = Symbol('bodyLimit');
/** The route's body limit, looked up once per request (each parser asks). */
const bodyLimitOf = (req: BodyParserRequest & { [BODY_LIMIT]?: number }) => (req[BODY_LIMIT] ??= bodyLimitFor(pathOf(req)));

/**
 * The application as main.ts, the e2e tests and the benches run it: Nest on Express with the
 * success envelope (EnvelopeExpressAdapter), and the HTTP surface of configureApp.
 */
export async function createApp(module: DynamicModule, options: Omit<NestApplicationOptions, 'bodyParser'> = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module, new EnvelopeExpressAdapter(), { ...options, bodyParser: false });
  configureApp(app);
  keepConnectionsAlive(app.getHttpServer(), app.get<AppConfig>(APP_CONFIG).httpKeepAliveSeconds);
  return app;
}

/** Idle keep-alive connections live HTTP_KEEP_ALIVE_SECONDS: Node's own 5 s is shorter than most balancers keep theirs. */
function keepConnectionsAlive(server: Server, seconds: number): void {
  server.keepAliveTimeout = seconds * 1000;
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
  app.use(jsonBody());
  // One layer for the checks of every request. A matching If-None-Match answers 304 also under Cache-Control: no-cache, which fetch
  // always adds; input refused here is answered after authentication (see input-checks.ts).
  app.use((req: Request, res: Response, next: NextFunction) =>
    revalidateOnNoCache(req, res, () => refuseNonJsonBody(req, res, () => checkInputSafety(req, res, next))),
  );
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
 * JSON bodies up to the route's limit (body-limits.ts), in one layer: the parser of the request's limit (one per distinct limit,
 * made once). A request without Content-Type is read as JSON too (API.md: all requests are JSON); a body of another type is a 415
 * (refuseNonJsonBody). A parser's refusal is kept on the request, answered after authentication (deferBodyErrors).
 */
function jsonBody(): RequestHandler {
  const type = (req: BodyParserRequest) => readsAsJson(req.headers['content-type']);
  const parsers = new Map(distinctBodyLimits().map((limit) => [limit, json({ limit, type })]));
  return (req, res, next) => parsers.get(bodyLimitOf(req))!(req, res, (err?: unknown) => (err ? deferBodyErrors(err, req, res, next) : next()));
}
