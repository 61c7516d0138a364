import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from './config/app.config';
import { bodyLimitFor, formatBytes } from './common/body-limits';
import { MAX_ARRAY_ITEMS, MAX_DEPTH, MAX_OBJECT_KEYS, MAX_VALUES } from './common/input-checks';
import { MAX_IDS_PER_FILTER, QUERY_PARAMETER_LIMIT } from './common/query';
import { sharedSchemas } from './common/openapi/envelope.decorators';
import { assignOperationIds, declareCommonStatuses, declareResponseHeaders } from './common/openapi/refine';
import { typeTimestamps } from './common/openapi/timestamps';
import { addMediaExamples } from './common/openapi/examples';
import { webhooksSection } from './modules/webhooks/http/webhook-document';

type ServerObject = NonNullable<OpenAPIObject['servers']>[number];

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

/** The OpenAPI 3.1 document of the app's controllers, `servers` naming `server`. */
export function buildApiDocument(app: NestExpressApplication, server: ServerObject): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, apiDescription());
  document.webhooks = webhooksSection();
  document.components = { ...document.components, schemas: { ...sharedSchemas(), ...document.components?.schemas } };
  document.info.license = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } as OpenAPIObject['info']['license'];
  assignOperationIds(document);
  typeTimestamps(document);
  declareCommonStatuses(document);
  declareResponseHeaders(document);
  documentBodyLimits(document);
  addMediaExamples(document);
  return { ...document, servers: [server] };
}

/**
 * The `servers` entry: the deployment's public URL when PUBLIC_URL sets one, else `/`, which a
 * generator resolves against the URL it read the document from (OpenAPI 3.1, 4.8.5). Never the
 * Host or X-Forwarded-Host of a request: a generated client would bake in whoever fetched it.
 */
export const serverOf = (config: Pick<AppConfig, 'publicUrl'>): ServerObject =>
  config.publicUrl ? { url: config.publicUrl, description: 'this deployment' } : { url: '/', description: 'the host that served this document' };

/** The OpenAPI document at /docs-json and Swagger UI at /docs. */
export function serveApiDocs(app: NestExpressApplication): void {
  const document = buildApiDocument(app, serverOf(app.get<AppConfig>(APP_CONFIG)));
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}
/** The document's title, description, tags and security scheme; the operations come from the controllers. */
export function apiDescription(): Omit<OpenAPIObject, 'paths'> {
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
      .setOpenAPIVersion('3.1.0')
      .setVersion('1.0')
      // Groups in the order an integrator reads them; administration of the platform last.
      .addTag('orders', 'Dialing campaigns: the order a lead belongs to')
      .addTag('leads (v2)', 'The people to call: create (sync or async), change, read, list')
      .addTag('leads (v1)', 'The older lead interface: snake_case in, UF_ fields out')
      .addTag('calls', 'Calls made for leads; telephony records finished calls')
      .addTag('do-not-call', 'Phone numbers no order may dial: add, remove, list')
      .addTag('dialer', 'The telephony platform claims due leads to call, gives them back, looks once more before dialling')
      .addTag('events', 'What changed, in commit order: the event feed an integrator follows (incremental sync)')
      .addTag('webhooks', 'Endpoints that receive the events as signed POSTs (Standard Webhooks), and their deliveries')
      .addTag('users', 'Agents and staff')
      .addTag('agent groups', 'Groups of agents an order dials with')
      .addTag('custom fields', 'The fields of customValues on leads and orders')
      .addTag('call attempt groups', 'Redial intervals')
      .addTag('notifications (v1)', 'Messages to users (inbox, e-mail, messenger)')
      .addTag('status catalogues', 'Lead and call statuses (statusId)')
      .addTag('health', 'Probes, component health and metrics')
      .addTag('management: clients', 'The businesses orders belong to; a client key reaches only its client')
      .addTag('management: users', 'Create and change users')
      .addTag('management: agent groups', 'Create and change agent groups')
      .addTag('management: custom fields', 'Create and change custom fields')
      .addTag('management: call attempt groups', 'Create and read redial interval groups')
      .addTag('management: call scenarios', 'The call scripts orders use')
      .addTag('management: sip endpoints', 'SIP trunks and endpoints calls go out through')
      .addTag('management: notifications', 'The notifications of every user, for administrators')
      .addTag('management: api keys', 'Create, list and revoke API keys')
      .addApiKey({ type: 'apiKey', name: 'X-Api-Key', in: 'header' }, 'api-key')
      .addSecurityRequirements('api-key')
      .build()
  );
}
