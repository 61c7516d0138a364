import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import request from 'supertest';
import type { Scope } from '../../src/common/auth-context';
import { ISOLATION_RULE, type IsolationRule } from '../../src/common/isolation';
import { PUBLIC_ROUTE, REQUIRED_SCOPE } from '../../src/modules/auth/http/auth.decorators';
import { callStatusId, recordCall } from '../factories/calls';
import { assignOrderToClient, clientKeyFor, insertClient } from '../factories/clients';
import { createLead, leadBody, testPhone } from '../factories/leads';
import { createOrder, insertAgentGroup, insertSipEndpoint, insertUser } from '../factories/orders';
import { eventually, type FakeBot, startFakeBot } from './fake-servers';
import type { TestApp } from './test-app';

/** How an operation treats a client key (see src/common/isolation.ts), or why it never reaches it. */
export type Rule = IsolationRule | 'scope:admin' | 'scope:telephony' | 'public';

/** The kinds of object a request can name, each held once per owner by the fixtures. */
export type Kind = 'order' | 'lead' | 'call' | 'webhook' | 'spareWebhook' | 'delivery' | 'asyncJob' | 'user' | 'agentGroup' | 'client';

/** Client A, client B, and nobody (the call center's own order and what lies under it). */
export type Owner = 'A' | 'B' | 'N';

/** What one owner holds: an object of each kind (no client for N), and the owner's order code. */
export type Owned = Record<Kind, number | string> & { orderCode: string };

export interface Fixtures {
  owned: Record<Owner, Owned>;
  keys: { A: string; B: string };
  receiver: FakeBot;
  leadStatusId: number;
  callStatusId: number;
  sipEndpointId: number;
}

/** An id no record has (the answer for it is what another client's object must answer). */
export const MISSING = 2147483000;
export const MISSING_UUID = '00000000-0000-4000-8000-00000000dead';

/** The table each kind lives in (for "nothing changed": the row and its updated_at). */
export const TABLE_OF: Record<Kind, string> = {
  order: 'call_order',
  lead: 'lead',
  call: 'call',
  webhook: 'webhook',
  spareWebhook: 'webhook',
  delivery: 'webhook_delivery',
  asyncJob: 'lead_async_job',
  user: 'app_user',
  agentGroup: 'agent_group',
  client: 'client',
};

/** The test app the matrix runs on: webhooks deliver to a local receiver, quickly. */
export const MATRIX_ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '50' };

/** A POST with the unrestricted key of the test app. */
const postAsOperator = (t: TestApp, path: string, body: object = {}) => request(t.http).post(path).set('X-Api-Key', t.apiKey).send(body);

async function webhookOf(t: TestApp, url: string, clientId: number | null): Promise<number> {
  const res = await postAsOperator(t, '/v2/webhook/create/', { url, events: ['webhook.test'] });
  if (res.status !== 200) throw new Error(`webhook create: ${res.status} ${JSON.stringify(res.body)}`);
  await t.ds.query(`UPDATE webhook SET client_id = $1 WHERE id = $2`, [clientId, res.body.data.id]);
  return res.body.data.id as number;
}

/** The objects of one owner, made as an operator and the platform would (set-up writes go around client keys). */
async function ownedBy(t: TestApp, clientId: number | null, receiver: FakeBot, statusId: number): Promise<Owned> {
  const [user, agentGroup, sip] = [await insertUser(t.ds), await insertAgentGroup(t.ds), await insertSipEndpoint(t.ds)];
  await t.ds.query(`INSERT INTO agent_group_member (group_id, user_id) VALUES ($1, $2)`, [agentGroup, user]);
  const order = await createOrder(t, {
    serviceTitle: 'Matrix',
    title: 'Matrix',
    status: 'success',
    sipEndpointIds: [sip],
    agentUserIds: [user],
    agentGroupIds: [agentGroup],
  });
  // Before any lead: the order settings cache holds the order's client.
  if (clientId !== null) await assignOrderToClient(t, order, clientId);
  const [{ code: orderCode }] = await t.ds.query<{ code: string }[]>(`SELECT code FROM call_order WHERE id = $1`, [order]);
  const lead = await createLead(t, { id: order, code: orderCode });
  const call = await recordCall(t, {
    leadId: lead,
    orderId: order,
    platformCallId: `matrix-${order}`,
    statusId,
    totalDurationSeconds: 30,
    waitTimeDurationSeconds: 5,
    talkTimeDurationSeconds: 25,
    startedAt: new Date(Date.now() - 60_000),
  });
  await postAsOperator(t, '/v2/dnc/add/', { phones: [testPhone()], orderId: order }).expect(200);
  if (clientId !== null) await postAsOperator(t, '/v2/dnc/add/', { phones: [testPhone()], clientId }).expect(200);
  const [webhook, spareWebhook] = [await webhookOf(t, receiver.url, clientId), await webhookOf(t, receiver.url, clientId)];
  await postAsOperator(t, `/v2/webhook/test/${webhook}/`).expect(200);
  const job = await postAsOperator(t, '/v2/lead/create-async/', leadBody({ id: order, code: orderCode })).expect(200);
  const delivery = await eventually(
    async () => {
      const rows = await t.ds.query<{ id: string }[]>(`SELECT id::text AS id FROM webhook_delivery WHERE webhook_id = $1 ORDER BY id LIMIT 1`, [webhook]);
      return rows[0]?.id;
    },
    15_000,
    `a delivery to webhook ${webhook}`,
  );
  return {
    order,
    orderCode,
    lead,
    call,
    webhook,
    spareWebhook,
    delivery,
    asyncJob: String(job.headers['x-job-id']),
    user,
    agentGroup,
    client: clientId ?? MISSING,
  };
}

/** Two clients, each with a key and objects of every kind, and objects of nobody's (unrestricted keys' and the call center's). */
export async function buildFixtures(t: TestApp): Promise<Fixtures> {
  const receiver = await startFakeBot();
  const [clientA, clientB] = [await insertClient(t), await insertClient(t)];
  const statusId = await callStatusId(t, 'answered');
  const owned = {
    A: await ownedBy(t, clientA, receiver, statusId),
    B: await ownedBy(t, clientB, receiver, statusId),
    N: await ownedBy(t, null, receiver, statusId),
  };
  await settle(t);
  const [{ id: leadStatusId }] = await t.ds.query<{ id: number }[]>(`SELECT min(id) AS id FROM lead_status`);
  const keys = { A: await clientKeyFor(t, clientA), B: await clientKeyFor(t, clientB) };
  return { owned, keys, receiver, leadStatusId, callStatusId: statusId, sipEndpointId: await insertSipEndpoint(t.ds) };
}

/**
 * Waits until background work is done (async lead jobs, event numbering, the dispatch of events
 * some webhook subscribes to, deliveries): a state read after it changes only by requests.
 */
export async function settle(t: TestApp): Promise<void> {
  let last: unknown;
  try {
    await eventually(async () => {
      const [s] = await t.ds.query(`SELECT
          (SELECT count(*)::int FROM lead_async_job WHERE state = 'queued') AS jobs,
          (SELECT count(*)::int FROM event WHERE position IS NULL) AS unnumbered,
          (SELECT coalesce(max(e.position), 0)::text FROM event e
            WHERE EXISTS (SELECT 1 FROM webhook w WHERE w.is_active AND (e.type = ANY(w.events) OR '*' = ANY(w.events)))) AS fed,
          (SELECT coalesce(max(position), 0)::text FROM webhook_dispatch_cursor) AS dispatched,
          (SELECT count(*)::int FROM webhook_delivery WHERE status = 'pending') AS pending`);
      last = s;
      return s.jobs === 0 && s.unnumbered === 0 && s.fed === s.dispatched && s.pending === 0;
    }, 20_000);
  } catch {
    throw new Error(`background work did not settle: ${JSON.stringify(last)}`);
  }
}

const WORLD_TABLES = [
  'call_order',
  'lead',
  'call',
  'webhook',
  'webhook_delivery',
  'lead_async_job',
  'notification',
  'app_user',
  'agent_group',
  'call_attempt_group',
  'custom_field',
  'client',
  'dnc_entry',
];

/**
 * What no refused request may change: row counts of customer and reference data, the latest
 * updated_at of each table that has one, and the end of the event feed.
 */
export async function worldState(t: TestApp): Promise<Record<string, number | string | null>> {
  const dated: { table_name: string }[] = await t.ds.query(
    `SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'updated_at' AND table_name = ANY($1)`,
    [WORLD_TABLES],
  );
  const parts = [
    ...WORLD_TABLES.map((n) => `(SELECT count(*)::int FROM ${n}) AS ${n}`),
    ...dated.map(({ table_name: n }) => `(SELECT max(updated_at)::text FROM ${n}) AS ${n}_updated`),
    `(SELECT count(*)::int FROM event) AS events`,
    `(SELECT coalesce(max(seq), 0)::text FROM event) AS last_event`,
  ];
  return (await t.ds.query(`SELECT ${parts.join(', ')}`))[0];
}

/** Each row, whole (updated_at included), by id. */
export async function rowsOf(t: TestApp, kind: Kind, ids: (number | string)[]): Promise<unknown[]> {
  const rows = [];
  for (const id of ids) rows.push((await t.ds.query(`SELECT to_jsonb(x) AS row FROM ${TABLE_OF[kind]} x WHERE id::text = $1`, [String(id)]))[0]?.row ?? null);
  return rows;
}

/** Events of these orders written after `afterSeq` (an asynchronous create's outcome must not land in them). */
export async function eventsOfOrdersSince(t: TestApp, orderIds: number[], afterSeq: string): Promise<number> {
  const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM event WHERE order_id = ANY($1::int[]) AND seq > $2::bigint`, [orderIds, afterSeq]);
  return n;
}

export interface DeclaredAccess {
  public: boolean;
  scope: Scope;
  isolation?: IsolationRule;
}

/** What each route of the app declares (public, scope, isolation rule), by `METHOD /path/{param}`, read as the API-key guard reads it. */
export function declaredRoutes(t: TestApp): Map<string, DeclaredAccess> {
  const reflector = new Reflector();
  const scanner = new MetadataScanner();
  const out = new Map<string, DeclaredAccess>();
  for (const wrapper of new DiscoveryService(t.app.get(ModulesContainer)).getControllers()) {
    const cls = wrapper.metatype as { prototype: object } | null;
    if (!cls) continue;
    const bases = [Reflect.getMetadata(PATH_METADATA, cls) as string | string[]].flat();
    for (const name of scanner.getAllMethodNames(cls.prototype)) {
      const handler = (cls.prototype as Record<string, object>)[name];
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      const targets = [handler, cls] as [() => void, () => void];
      const access: DeclaredAccess = {
        public: reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) ?? false,
        scope: reflector.getAllAndOverride<Scope>(REQUIRED_SCOPE, targets) ?? 'api',
        isolation: reflector.getAllAndOverride<IsolationRule | undefined>(ISOLATION_RULE, targets),
      };
      for (const base of bases) {
        const path = `/${[base, Reflect.getMetadata(PATH_METADATA, handler) as string].join('/')}`
          .replace(/\/+/g, '/')
          .replace(/\/$/, '')
          .replace(/:(\w+)/g, '{$1}');
        out.set(`${RequestMethod[method]} ${path || '/'}`, access);
      }
    }
  }
  return out;
}

/** Sends `op` ("METHOD /path/{param}") with its parameter set to `id`. */
export function send(t: TestApp, op: string, opts: { key?: string; id?: number | string; body?: object; query?: Record<string, unknown> }) {
  const [method, template] = op.split(' ');
  const path = `${template.replace(/\{\w+\}/, String(opts.id ?? MISSING))}/`;
  const req =
    method === 'GET'
      ? request(t.http).get(path)
      : request(t.http)
          .post(path)
          .send(opts.body ?? {});
  if (opts.query) req.query(opts.query);
  return opts.key ? req.set('X-Api-Key', opts.key) : req;
}

/** A list item or an event, as the API answers it. */
export type Item = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Whose an object is, among the fixtures (a webhook: either of an owner's two). */
export function ownerOf(f: Fixtures, kind: Kind, id: unknown): Owner | undefined {
  const kinds: Kind[] = kind === 'webhook' ? ['webhook', 'spareWebhook'] : [kind];
  return (['A', 'B', 'N'] as const).find((w) => kinds.some((k) => String(f.owned[w][k]) === String(id)));
}

/** Every fixture order, for a list that needs an orderIds filter. */
export function everyOrder(f: Fixtures) {
  return {
    orderIds: Object.values(f.owned)
      .map((o) => o.order)
      .join(','),
  };
}

/** A lead or call is its order's. */
export function byOrder(item: Item, f: Fixtures): Owner | undefined {
  return ownerOf(f, 'order', item.orderId);
}

/** An event is its order's; webhook.test is its webhook's. */
export function eventOwner(e: Item, f: Fixtures): Owner | undefined {
  if (e.type === 'webhook.test') return ownerOf(f, 'webhook', e.data.webhookId);
  return ownerOf(f, 'order', e.data.lead?.orderId ?? e.data.call?.orderId ?? e.data.order?.id ?? e.data.orderId);
}

/** A do-not-call entry is its order's, or its client's (the global list is nobody's fixture). */
export function dncOwner(e: Item, f: Fixtures): Owner | undefined {
  return e.orderId !== null ? ownerOf(f, 'order', e.orderId) : ownerOf(f, 'client', e.clientId);
}

/** A 2xx, or a failure that shows the answer. */
export function expectOk(res: request.Response) {
  expect(res.status < 300 ? 'ok' : { status: res.status, body: res.body }).toBe('ok');
}

/** What the declarations of a route must be for its row's rule. */
export function expectedDeclaration(rule: Rule): DeclaredAccess {
  if (rule === 'public') return { public: true, scope: 'api', isolation: undefined };
  if (rule === 'scope:admin' || rule === 'scope:telephony')
    return { public: false, scope: rule === 'scope:admin' ? 'admin' : 'telephony', isolation: undefined };
  return { public: false, scope: 'api', isolation: rule };
}

export const takesPathId = (op: string) => /\{\w+\}/.test(op);
