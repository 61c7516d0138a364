import request from 'supertest';
import { leadBody, testPhone } from './factories/leads';
import { notificationBody } from './factories/notifications';
import { operationsOf, type OpenApiDoc } from './support/openapi-doc';
import {
  buildFixtures,
  byOrder,
  type DeclaredAccess,
  declaredRoutes,
  dncOwner,
  eventOwner,
  eventsOfOrdersSince,
  everyOrder,
  expectedDeclaration,
  expectOk,
  type Fixtures,
  type Item,
  type Kind,
  MATRIX_ENV,
  MISSING,
  MISSING_UUID,
  type Owned,
  type Owner,
  ownerOf,
  rowsOf,
  type Rule,
  send,
  settle,
  takesPathId,
  worldState,
} from './support/isolation-matrix';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Every operation of the OpenAPI document and what a client key (a key bound to one client) gets
 * from it. An operation without a row, or a row without an operation, fails the first tests.
 */
interface Row {
  op: string;
  rule: Rule;
  /** The object the request names: in its path, else in the body `body` builds. */
  target?: Kind;
  /** The body, around the objects of one owner. */
  body?: (o: Owned, f: Fixtures) => object;
  /**
   * What a client key gets for another client's object, the same as for a missing one: a 404 (`absent`), a 400 naming `field`
   * (`invalid`), a failed batch item (`item`), an async create's answer (`async`); `unlike-missing`: a 400 worded its own way.
   */
  refusal?: 'absent' | 'invalid' | 'item' | 'async' | 'unlike-missing';
  field?: string;
  /** A list: whose items it holds, and the filter that names another client's object. */
  list?: { kind: Kind; filter?: [string, Kind]; ownerOf?: (item: Item, f: Fixtures) => Owner | undefined; query?: (f: Fixtures) => object };
  /** The path id of an operation that is not scoped. */
  id?: (f: Fixtures) => number;
}

const order = (o: Owned) => ({ id: o.order as number, code: o.orderCode });
const lead = (o: Owned) => leadBody(order(o));
const admin = (...ops: string[]): Row[] => ops.map((op) => ({ op, rule: 'scope:admin' }));
const shared = (op: string, id?: (f: Fixtures) => number): Row => ({ op, rule: 'shared', id });

const ROWS: Row[] = [
  ...admin('POST /v2/api-key/create', 'GET /v2/api-key', 'POST /v2/api-key/revoke/{id}'),
  ...admin('POST /v2/client/create', 'POST /v2/client/update/{id}', 'GET /v2/client/detail/{id}', 'GET /v2/client'),
  shared('GET /v1/health/check'),
  { op: 'GET /health/live', rule: 'public' },
  { op: 'GET /health/ready', rule: 'public' },
  ...admin('GET /metrics'),

  { op: 'GET /v2/user/detail/{userId}', rule: 'scoped', target: 'user' },
  { op: 'GET /v2/user/list', rule: 'scoped', list: { kind: 'user' } },
  ...admin('POST /v2/user/create', 'POST /v2/user/update/{userId}'),
  { op: 'GET /v2/agent-group/{id}', rule: 'scoped', target: 'agentGroup' },
  { op: 'GET /v2/agent-group', rule: 'scoped', list: { kind: 'agentGroup', filter: ['agentId', 'user'] } },
  ...admin('POST /v2/agent-group/create', 'POST /v2/agent-group/update/{id}'),
  ...admin('POST /v2/sip-endpoint/create', 'POST /v2/sip-endpoint/update/{id}', 'GET /v2/sip-endpoint', 'GET /v2/sip-endpoint/detail/{id}'),
  ...admin('POST /v2/call-scenario/create', 'POST /v2/call-scenario/update/{id}', 'GET /v2/call-scenario', 'GET /v2/call-scenario/detail/{id}'),
  { op: 'POST /v2/call-attempt/update/{id}', rule: 'forbidden', body: () => ({ title: 'Taken over' }) },
  ...admin('POST /v2/call-attempt/create', 'GET /v2/call-attempt', 'GET /v2/call-attempt/detail/{id}'),
  shared('GET /v2/custom-field'),
  shared('GET /v2/custom-fields'),
  ...admin('POST /v2/custom-field/create', 'POST /v2/custom-field/update/{id}', 'GET /v2/custom-field/detail/{id}'),

  {
    op: 'POST /v2/order/create',
    rule: 'scoped',
    target: 'client',
    refusal: 'unlike-missing',
    field: 'clientId',
    body: (o, f) => ({ serviceTitle: 'Matrix', title: 'Matrix', status: 'success', sipEndpointIds: [f.sipEndpointId], clientId: o.client }),
  },
  { op: 'POST /v2/order/update/{orderId}', rule: 'scoped', target: 'order', body: () => ({ title: 'Changed' }) },
  { op: 'GET /v2/order/detail/{orderId}', rule: 'scoped', target: 'order' },
  { op: 'GET /v2/order/stats/{orderId}', rule: 'scoped', target: 'order' },
  { op: 'GET /v2/order', rule: 'scoped', list: { kind: 'order' } },

  { op: 'POST /v2/lead/create', rule: 'scoped', target: 'order', body: lead },
  { op: 'POST /v2/lead/create-batch', rule: 'scoped', target: 'order', refusal: 'item', body: (o) => ({ leads: [lead(o)] }) },
  { op: 'POST /v2/lead/upsert', rule: 'scoped', target: 'order', body: (o) => ({ ...lead(o), matchBy: 'phone' }) },
  { op: 'POST /v2/lead/create-async', rule: 'scoped', target: 'order', refusal: 'async', body: lead },
  { op: 'GET /v2/lead/create-async/{jobId}', rule: 'scoped', target: 'asyncJob' },
  { op: 'POST /v2/lead/update/{leadId}', rule: 'scoped', target: 'lead', body: () => ({ name: 'Changed' }) },
  { op: 'GET /v2/lead/callable/{leadId}', rule: 'scoped', target: 'lead' },
  { op: 'GET /v2/lead/detail/{leadId}', rule: 'scoped', target: 'lead' },
  { op: 'GET /v2/lead', rule: 'scoped', list: { kind: 'lead', filter: ['orderIds', 'order'], ownerOf: byOrder } },
  {
    op: 'POST /v1/lead/create',
    rule: 'scoped',
    target: 'order',
    field: 'order_id',
    body: (o) => ({ lead_type: 'straight', client_phone: testPhone(), order_id: o.order, order_code: o.orderCode }),
  },
  { op: 'POST /v1/lead/update/{lead_id}', rule: 'scoped', target: 'lead', body: () => ({ client_name: 'Changed' }) },
  { op: 'GET /v1/lead/detail/{lead_id}', rule: 'scoped', target: 'lead' },
  shared('GET /v2/lead-status'),
  shared('GET /v2/lead-status/detail/{id}', (f) => f.leadStatusId),
  ...admin('POST /v2/lead-status/create', 'POST /v2/lead-status/update/{id}'),

  // The call list needs leadIds or orderIds: every fixture order is named, the key's client's alone answer.
  { op: 'GET /v2/call', rule: 'scoped', list: { kind: 'call', filter: ['orderIds', 'order'], ownerOf: byOrder, query: everyOrder } },
  { op: 'GET /v2/call/detail/{callId}', rule: 'scoped', target: 'call' },
  { op: 'POST /v2/call/create', rule: 'scope:telephony' },
  { op: 'POST /v2/call/create-batch', rule: 'scope:telephony' },
  { op: 'POST /v2/dialer/claim', rule: 'scope:telephony' },
  { op: 'POST /v2/dialer/release', rule: 'scope:telephony' },
  { op: 'POST /v2/dialer/confirm', rule: 'scope:telephony' },
  { op: 'GET /v2/dialer/claims', rule: 'scope:telephony' },
  shared('GET /v2/call-status'),
  shared('GET /v2/call-status/detail/{id}', (f) => f.callStatusId),
  ...admin('POST /v2/call-status/create', 'POST /v2/call-status/update/{id}'),

  { op: 'POST /v1/notification/group', rule: 'forbidden', body: () => ({ ...notificationBody(), group: 'call-center' }) },
  { op: 'POST /v1/notification/private', rule: 'scoped', target: 'user', refusal: 'absent', body: (o) => ({ ...notificationBody(), user_id: o.user }) },
  { op: 'POST /v1/notification/public', rule: 'forbidden', body: () => notificationBody() },
  ...admin('GET /v1/notification'),

  {
    op: 'POST /v2/webhook/create',
    rule: 'scoped',
    target: 'order',
    field: 'orderIds',
    body: (o, f) => ({ url: f.receiver.url, events: ['webhook.test'], orderIds: [o.order] }),
  },
  { op: 'POST /v2/webhook/update/{webhookId}', rule: 'scoped', target: 'webhook', body: () => ({ description: 'Changed' }) },
  {
    op: 'GET /v2/webhook/delivery',
    rule: 'scoped',
    list: { kind: 'delivery', filter: ['webhookId', 'webhook'], ownerOf: (d, f) => ownerOf(f, 'webhook', d.webhookId) },
  },
  { op: 'POST /v2/webhook/redeliver/{deliveryId}', rule: 'scoped', target: 'delivery' },
  { op: 'GET /v2/webhook/detail/{webhookId}', rule: 'scoped', target: 'webhook' },
  { op: 'GET /v2/webhook', rule: 'scoped', list: { kind: 'webhook' } },
  { op: 'POST /v2/webhook/rotate-secret/{webhookId}', rule: 'scoped', target: 'webhook' },
  { op: 'POST /v2/webhook/test/{webhookId}', rule: 'scoped', target: 'webhook' },
  { op: 'POST /v2/webhook/delete/{webhookId}', rule: 'scoped', target: 'spareWebhook' },
  { op: 'POST /v2/dnc/add', rule: 'scoped', target: 'order', body: (o) => ({ phones: [testPhone()], orderId: o.order }) },
  { op: 'POST /v2/dnc/remove', rule: 'scoped', target: 'order', body: (o) => ({ phones: [testPhone()], orderId: o.order }) },
  { op: 'GET /v2/dnc', rule: 'scoped', list: { kind: 'order', filter: ['orderId', 'order'], ownerOf: dncOwner } },
  { op: 'GET /v2/event', rule: 'scoped', list: { kind: 'order', filter: ['orderIds', 'order'], ownerOf: eventOwner } },
];

describe('isolation matrix: every operation and what a client key gets from it', () => {
  let t: TestApp;
  let f: Fixtures;
  let operations: string[];
  let declared: Map<string, DeclaredAccess>;

  beforeAll(async () => {
    t = await createTestApp(MATRIX_ENV);
    const doc = (await request(t.http).get('/docs-json').expect(200)).body as OpenApiDoc;
    operations = operationsOf(doc).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    declared = declaredRoutes(t);
    f = await buildFixtures(t);
  }, 120_000);
  afterAll(async () => {
    await f?.receiver.close();
    await t.close();
  });

  it('has a row for every operation of /docs-json and every route of the app', () => {
    const rows = new Set(ROWS.map((r) => r.op));
    const missing = [...new Set([...operations, ...declared.keys()])].filter((op) => !rows.has(op));
    expect(missing.map((op) => `add ${op} to the isolation table`)).toEqual([]);
  });

  it('has no row for an operation that does not exist, and one row per operation', () => {
    const stale = ROWS.filter((r) => !operations.includes(r.op)).map((r) => `${r.op} is not an operation any more: remove its row`);
    expect(stale).toEqual([]);
    expect(ROWS.length).toBe(new Set(ROWS.map((r) => r.op)).size);
  });

  it.each(ROWS)('$op declares what its row says ($rule)', ({ op, rule }) => {
    expect(declared.get(op) ?? `${op}: no such route`).toEqual(expectedDeclaration(rule));
  });

  const scopedOn = ROWS.filter((r) => r.rule === 'scoped' && r.target);
  it.each(scopedOn)("$op: client A gets for B's and nobody's $target what it gets for a missing one; nothing changes; B's key works", async (row) => {
    const kind = row.target!;
    const owners: Owner[] = kind === 'client' ? ['B'] : ['B', 'N'];
    const missingId = kind === 'asyncJob' ? MISSING_UUID : MISSING;
    const req = (o: Owned, key: string) => send(t, row.op, { key, id: takesPathId(row.op) ? o[kind] : undefined, body: row.body?.(o, f) });
    await settle(t);
    const ids = owners.map((w) => f.owned[w][kind]);
    const [world, rows] = [await worldState(t), await rowsOf(t, kind, ids)];
    const missing = await req({ ...f.owned.B, [kind]: missingId }, f.keys.A);
    expectRefusal(row, missing);
    for (const w of owners) {
      const res = await req(f.owned[w], f.keys.A);
      const expected = JSON.parse(JSON.stringify(missing.body).replaceAll(String(missingId), String(f.owned[w][kind])));
      if (row.refusal === 'unlike-missing') expectRefusal(row, res);
      else expect({ status: res.status, body: res.body }).toEqual({ status: missing.status, body: expected });
    }
    if (row.refusal === 'async') {
      await settle(t);
      // A missing order's job is kept (and fails); the order's leads and events stay as they were.
      const { lead_async_job: _jobs, events: _events, last_event: _last, ...rest } = world;
      expect(await worldState(t)).toMatchObject(rest);
      expect(await eventsOfOrdersSince(t, ids as number[], String(world.last_event))).toBe(0);
    } else {
      expect(await worldState(t)).toEqual(world);
    }
    expect(await rowsOf(t, kind, ids)).toEqual(rows);
    expectOk(await req(f.owned.B, f.keys.B));
  });

  /** The answer for a missing object must itself be the refusal the row names (never a 403 that says it exists). */
  function expectRefusal(row: Row, res: request.Response) {
    const refusal = row.refusal ?? (takesPathId(row.op) ? 'absent' : 'invalid');
    const named = (errors: { field: string }[] | undefined) => (errors ?? []).map((e) => e.field);
    if (refusal === 'absent') expect(res.status).toBe(404);
    else if (refusal === 'item')
      expect(res.body.data?.results?.[0]).toMatchObject({ success: false, errors: [expect.objectContaining({ field: row.field ?? 'orderId' })] });
    else if (refusal === 'async') expect([200, 400]).toContain(res.status);
    else
      expect({ status: res.status, fields: named(res.body.data?.errors) }).toEqual({ status: 400, fields: expect.arrayContaining([row.field ?? 'orderId']) });
  }

  const lists = ROWS.filter((r) => r.list);
  it.each(lists)("$op: a client key lists its client's items only (exact total), never by naming another's", async (row) => {
    const { kind, filter, ownerOf: owner = (item: Item) => ownerOf(f, kind, item.id) } = row.list!;
    const read = async (key: string, query: Record<string, unknown> = {}) => {
      const res = await send(t, row.op, { key, query: { limit: 100, ...row.list!.query?.(f), ...query } });
      expectOk(res);
      const data = res.body.data as { list: Item[]; total?: number };
      if (data.total !== undefined) expect(data.total).toBe(data.list.length);
      return data.list.map((item) => owner(item, f));
    };
    /** Items of A, and none of B's or nobody's. */
    const onlyA = (owners: (Owner | undefined)[]) =>
      expect({ hasA: owners.includes('A'), others: owners.filter((w) => w === 'B' || w === 'N') }).toEqual({ hasA: true, others: [] });
    onlyA(await read(f.keys.A));
    if (filter) {
      const [name, of] = filter;
      for (const w of ['B', 'N'] as const) expect(await read(f.keys.A, { [name]: f.owned[w][of] })).toEqual([]);
      if (name === 'orderIds') onlyA(await read(f.keys.A, { orderIds: (['A', 'B', 'N'] as const).map((w) => f.owned[w][of]).join(',') }));
    }
    expect(await read(f.keys.B)).toContain('B');
  });

  const refused = ROWS.filter((r) => r.rule === 'forbidden' || r.rule.startsWith('scope:'));
  it.each(refused)('$op: a client key gets 403 ($rule) and nothing changes', async (row) => {
    await settle(t);
    const world = await worldState(t);
    const res = await send(t, row.op, { key: f.keys.A, id: row.id?.(f) ?? 1, body: row.body?.(f.owned.A, f) });
    expect({ status: res.status, message: res.body.message }).toEqual({
      status: 403,
      message: row.rule === 'forbidden' ? expect.stringContaining('client key') : expect.stringContaining('scope'),
    });
    expect(await worldState(t)).toEqual(world);
  });

  it.each(ROWS.filter((r) => r.rule === 'shared'))('$op: a client key reads it as any key does', async (row) => {
    const id = row.id?.(f);
    const [ofA, unrestricted] = [await send(t, row.op, { key: f.keys.A, id }), await send(t, row.op, { key: t.apiKey, id })];
    expectOk(ofA);
    if (row.op !== 'GET /v1/health/check') expect(ofA.body).toEqual(unrestricted.body);
  });

  it.each(ROWS.filter((r) => r.rule === 'public'))('$op: answers without a key', async (row) => {
    expectOk(await send(t, row.op, {}));
  });

  /** Ids a body names (an order's agents): a client key may name only the users and agent groups it reaches. */
  const BODY_REFERENCES = [
    { op: 'POST /v2/order/create', field: 'agentUserIds', kind: 'user' },
    { op: 'POST /v2/order/create', field: 'agentGroupIds', kind: 'agentGroup' },
    { op: 'POST /v2/order/update/{orderId}', field: 'agentUserIds', kind: 'user' },
    { op: 'POST /v2/order/update/{orderId}', field: 'agentGroupIds', kind: 'agentGroup' },
  ] as const;
  it.each(BODY_REFERENCES)("$op: client A naming B's or nobody's $kind in $field gets what a missing id gets; nothing changes", async ({ op, field, kind }) => {
    const body = (ids: number[]) =>
      op === 'POST /v2/order/create'
        ? { serviceTitle: 'Matrix', title: 'Matrix', status: 'success', sipEndpointIds: [f.sipEndpointId], [field]: ids }
        : { [field]: ids };
    const req = (ids: number[], key = f.keys.A) => send(t, op, { key, id: f.owned.A.order, body: body(ids) });
    const foreign = (['B', 'N'] as const).map((w) => f.owned[w][kind] as number);
    await settle(t);
    const [world, order] = [await worldState(t), await rowsOf(t, 'order', [f.owned.A.order])];

    const missing = await req([MISSING]);
    expect({ status: missing.status, errors: missing.body.data?.errors }).toEqual({ status: 400, errors: [{ field, message: `unknown ids: ${MISSING}` }] });
    for (const id of foreign) {
      const res = await req([id]);
      expect({ status: res.status, body: res.body }).toEqual({
        status: missing.status,
        body: JSON.parse(JSON.stringify(missing.body).replaceAll(String(MISSING), String(id))),
      });
    }
    // Foreign and missing ids together: one message, in the order sent, that tells them apart in no way.
    const mixed = await req([foreign[0], MISSING, foreign[1]]);
    expect(mixed.body.data?.errors).toEqual([{ field, message: `unknown ids: ${foreign[0]}, ${MISSING}, ${foreign[1]}` }]);
    expect(await worldState(t)).toEqual(world);
    expect(await rowsOf(t, 'order', [f.owned.A.order])).toEqual(order);

    // Its own client's user or group is fine; an unrestricted key names any that exists, as before.
    expectOk(await req([f.owned.A[kind] as number]));
    if (op === 'POST /v2/order/create') expectOk(await req(foreign, t.apiKey));
  });
});
