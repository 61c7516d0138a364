import type { OpenAPIObject, ResponseObject } from '@nestjs/swagger';
import { exampleOf } from './examples';
import { assignOperationIds, declareCommonStatuses, declareResponseHeaders } from './refine';
import { typeTimestamps } from './timestamps';

const documentWith = (schemas: Record<string, object>, paths: Record<string, object> = {}): OpenAPIObject => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths,
  components: { schemas },
});

describe('typeTimestamps', () => {
  it('gives ISO timestamps of response objects format date-time and the others a pattern, by their example', () => {
    const doc = documentWith({
      ThingView: {
        properties: {
          createdAt: { type: 'string', example: '2026-03-04T05:06:07+00:00' },
          updatedAt: { type: 'string', example: '22.11.2025 09:30' },
          lastLoginAt: { type: ['string', 'null'], example: '2026-03-04 05:06:07' },
          revokedAt: { type: ['string', 'null'], example: null },
          title: { type: 'string', example: 'x' },
        },
      },
      ThingDto: { properties: { createdAt: { type: 'string' } } },
    });
    typeTimestamps(doc);
    const props = (doc.components!.schemas!.ThingView as { properties: Record<string, Record<string, unknown>> }).properties;
    expect(props.createdAt.format).toBe('date-time');
    expect(props.updatedAt).toMatchObject({ pattern: '^\\d{2}\\.\\d{2}\\.\\d{4} \\d{2}:\\d{2}$' });
    expect(props.lastLoginAt).toMatchObject({ pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' });
    expect(props.revokedAt.format).toBe('date-time');
    expect(props.title.format).toBeUndefined();
    expect(doc.components!.schemas!.ThingDto).toEqual({ properties: { createdAt: { type: 'string' } } });
  });
});

describe('exampleOf', () => {
  it('composes an example from the parts: own examples, const, enum, first non-null alternative, refs and allOf', () => {
    const doc = documentWith({
      Base: { type: 'object', properties: { success: { type: 'boolean', const: true }, message: { type: 'string', example: '' } } },
      Item: { type: 'object', properties: { id: { type: 'integer', minimum: 1 }, kind: { type: ['string', 'null'], enum: ['a', 'b', null] } } },
    });
    const schema = {
      allOf: [
        { $ref: '#/components/schemas/Base' },
        { type: 'object', properties: { data: { anyOf: [{ type: 'null' }, { type: 'array', items: { $ref: '#/components/schemas/Item' } }] } } },
      ],
    };
    expect(exampleOf(doc, schema)).toEqual({ success: true, message: '', data: [{ id: 1, kind: 'a' }] });
    expect(exampleOf(doc, { type: 'string', format: 'date-time' })).toBe('2026-03-04T05:06:07+00:00');
    expect(exampleOf(doc, { type: 'array', maxItems: 0, items: { type: 'string' } })).toEqual([]);
  });
});

const headerNames = (response: unknown) => Object.keys((response as ResponseObject).headers ?? {});

describe('operation ids, statuses and headers', () => {
  const op = (extra: object = {}) => ({ responses: { '200': { description: 'ok' } }, ...extra });
  const doc = () =>
    documentWith(
      {},
      {
        '/v2/order': { get: op() },
        '/v2/order/create': { post: op({ requestBody: { content: {} }, parameters: [{ in: 'header', name: 'Idempotency-Key' }] }) },
        '/health/live': { get: op({ security: [] }) },
        '/v9/new-thing/{id}': { get: op() },
      },
    );

  it('names operations from the table, and an unlisted one from its method and path', () => {
    const d = doc();
    assignOperationIds(d);
    expect(d.paths['/v2/order'].get!.operationId).toBe('listOrders');
    expect(d.paths['/v2/order/create'].post!.operationId).toBe('createOrder');
    expect(d.paths['/v9/new-thing/{id}'].get!.operationId).toBe('getV9NewThingId');
  });

  it('adds 400 everywhere, 409 and Idempotent-Replayed with an Idempotency-Key, 413 and 415 with a body, 304 and ETag on GETs, rate limits behind the key', () => {
    const d = doc();
    declareCommonStatuses(d);
    declareResponseHeaders(d);
    const create = d.paths['/v2/order/create'].post!.responses;
    expect(Object.keys(create).sort()).toEqual(['200', '400', '409', '413', '415']);
    expect(headerNames(create['200'])).toEqual(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Idempotent-Replayed']);
    const live = d.paths['/health/live'].get!.responses;
    expect(Object.keys(live).sort()).toEqual(['200', '304', '400']);
    expect(headerNames(live['200'])).toEqual(['X-Request-Id', 'ETag']);
    expect(d.components!.headers!['Retry-After']).toMatchObject({ schema: { type: 'integer' } });
  });
});
