import { createHmac } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { App } from 'supertest/types';
import { WebhookDeliveryWorker } from '../src/modules/webhooks/webhook-delivery.worker';
import { WebhookDispatcher } from '../src/modules/webhooks/webhook-dispatcher.worker';
import { WebhookDeliveriesRepository } from '../src/modules/webhooks/persistence/webhook-deliveries.repository';
import { WebhookSender } from '../src/modules/webhooks/http/webhook-sender';
import { createLeadOrder, leadBody, TestOrder } from './factories/leads';
import { eventually } from './support/fake-servers';
import { createSiblingApp, createTestApp, TestApp } from './support/test-app';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver answers on a path, given how many requests that path has had before (0-based). */
type Behaviour = (n: number) => { status: number; delayMs?: number };

/** An in-process HTTP receiver on 127.0.0.1: records every request, answers per path. */
async function startReceiver() {
  const received: Received[] = [];
  const behaviours = new Map<string, Behaviour>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const n = received.filter((r) => r.path === path).length;
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const b: ReturnType<Behaviour> = (behaviours.get(path) ?? (() => ({ status: 200 })))(n);
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(b.status, { 'content-type': 'text/plain' }).end('ok');
      };
      if (b.delayMs) setTimeout(answer, b.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    on: (path: string, b: Behaviour) => behaviours.set(path, b),
    at: (path: string) => received.filter((r) => r.path === path),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The documented algorithm: HMAC-SHA256 over "{id}.{timestamp}.{body}" keyed by the secret's base64-decoded bytes. */
function documentedSignature(secret: string, r: Received): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return createHmac('sha256', key)
    .update(`${String(r.headers['webhook-id'])}.${String(r.headers['webhook-timestamp'])}.${r.body}`)
    .digest('base64');
}

const signaturesOf = (r: Received) =>
  String(r.headers['webhook-signature'])
    .split(' ')
    .map((s) => s.replace(/^v1,/, ''));

describe('webhooks (in-process receiver, compressed retry schedule)', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let paths = 0;
  const newPath = (what: string) => `/${what}-${++paths}`;
  const post = (path: string, body: unknown = {}) =>
    request(t.http)
      .post(path)
      .set('X-Api-Key', t.apiKey)
      .send(body as object);
  const get = (path: string) => request(t.http).get(path).set('X-Api-Key', t.apiKey);

  async function createWebhook(body: Record<string, unknown>): Promise<{ id: number; secret: string }> {
    const res = await post('/v2/webhook/create/', body);
    expect(res.status).toBe(200);
    return res.body.data;
  }

  async function createLead(order: TestOrder): Promise<number> {
    return (await post('/v2/lead/create/', leadBody(order)).expect(200)).body.data.id;
  }

  async function deliveriesOf(webhookId: number, status?: string) {
    const res = await get(`/v2/webhook/delivery/?webhookId=${webhookId}${status ? `&status=${status}` : ''}&limit=100`).expect(200);
    return res.body.data.list as {
      id: number;
      eventId: string;
      type: string;
      status: string;
      attempts: number;
      lastStatusCode: number | null;
      lastError: string | null;
    }[];
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp({
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms',
      WEBHOOK_TIMEOUT_MS: '700',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      ORDER_SETTINGS_CACHE_TTL_MS: '0',
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  describe('subscriptions', () => {
    it('create answers {id, secret}: whsec_ + base64 of at least 24 bytes; list and detail never show a secret', async () => {
      const order = await createLeadOrder(t);
      const body = { url: receiver.url(newPath('crud')), events: ['lead.created', 'lead.updated'], orderIds: [order.id], description: 'CRM' };
      const { id, secret } = await createWebhook(body);
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
      expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);

      const detail = (await get(`/v2/webhook/detail/${id}/`).expect(200)).body.data;
      expect(detail).toEqual({
        id,
        clientId: null,
        url: body.url,
        events: ['lead.created', 'lead.updated'],
        orderIds: [order.id],
        description: 'CRM',
        isActive: true,
        disabledReason: null,
        disabledAt: null,
        previousSecretExpiresAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const list = (await get('/v2/webhook/?limit=100').expect(200)).body.data;
      expect(list).toEqual({ list: expect.arrayContaining([detail]), next: list.list.length, total: list.list.length });
      const rotated = (await post(`/v2/webhook/rotate-secret/${id}/`).expect(200)).body.data.secret;
      for (const text of [
        JSON.stringify((await get(`/v2/webhook/detail/${id}`).expect(200)).body),
        JSON.stringify((await get('/v2/webhook').expect(200)).body),
      ]) {
        expect(text).not.toContain(secret.slice(6));
        expect(text).not.toContain(rotated.slice(6));
        expect(text).not.toMatch(/whsec_|"secret"/);
      }
    });

    it('update is partial; delete removes it (404 after); unknown ids are 404, bad ids 400', async () => {
      const { id } = await createWebhook({ url: receiver.url(newPath('upd')), events: ['*'], isActive: false });
      await post(`/v2/webhook/update/${id}/`, { description: 'renamed', events: ['order.created'] }).expect(200);
      const d = (await get(`/v2/webhook/detail/${id}/`).expect(200)).body.data;
      expect(d).toMatchObject({ description: 'renamed', events: ['order.created'], isActive: false, orderIds: [] });
      await post(`/v2/webhook/delete/${id}/`).expect(200);
      await get(`/v2/webhook/detail/${id}/`).expect(404);
      await post(`/v2/webhook/update/${id}/`, { description: 'x' }).expect(404);
      await post(`/v2/webhook/delete/${id}/`).expect(404);
      await post('/v2/webhook/rotate-secret/99999/').expect(404);
      await post('/v2/webhook/test/99999/').expect(404);
      await post('/v2/webhook/redeliver/99999/').expect(404);
      for (const bad of ['0', '-1', 'abc', '99999999999']) {
        const res = await get(`/v2/webhook/detail/${bad}/`);
        expect(res.status).toBe(400);
        expect(res.body.success).toBe(false);
      }
    });

    it('refuses bad input with 400 naming the field, and stores nothing', async () => {
      const before = (await t.ds.query(`SELECT count(*)::int AS n FROM webhook`))[0].n;
      const url = receiver.url('/never');
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ url, events: [] }, 'events', /must not be empty/],
        [{ url, events: ['lead.created', 'lead.deleted'] }, 'events', /unknown types: lead\.deleted/],
        [{ url, events: ['*', 'lead.created'] }, 'events', /stands alone/],
        [{ url, events: ['*'], orderIds: [987654, 987655] }, 'orderIds', /unknown ids: 987654, 987655/],
        [{ url: 'ftp://example.com/x', events: ['*'] }, 'url', /http or https/],
        [{ url: 'not a url', events: ['*'] }, 'url', /absolute URL/],
        [{ url: 'https://user:pw@example.com/', events: ['*'] }, 'url', /credentials/],
        [{ events: ['*'] }, 'url', /./],
        [{ url, events: 'lead.created' }, 'events', /./],
        [{ url, events: ['*'], orderIds: [0] }, 'orderIds', /./],
      ];
      for (const [body, field, message] of cases) {
        const res = await post('/v2/webhook/create/', body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        const err = (res.body.data.errors as { field: string; message: string }[]).find((e) => e.field === field);
        expect({ body, message: err?.message }).toEqual({ body, message: expect.stringMatching(message) });
      }
      const { id } = await createWebhook({ url, events: ['*'], isActive: false });
      const res = await post(`/v2/webhook/update/${id}/`, { orderIds: [987654] });
      expect(res.status).toBe(400);
      expect((await get(`/v2/webhook/detail/${id}/`).expect(200)).body.data.orderIds).toEqual([]);
      expect((await t.ds.query(`SELECT count(*)::int AS n FROM webhook`))[0].n).toBe(before + 1);
      await post(`/v2/webhook/delete/${id}/`).expect(200);
    });

    it('a webhook deleted while the dispatcher writes its deliveries waits for them and takes them along: no foreign-key error', async () => {
      const { id } = await createWebhook({ url: receiver.url(newPath('deleted')), events: ['*'], isActive: true });
      // The dispatcher's transaction, held open between reading the subscriptions and writing the deliveries.
      const tx = t.ds.createQueryRunner();
      await tx.connect();
      await tx.startTransaction();
      try {
        expect((await t.app.get(WebhookDeliveriesRepository).activeSubscriptions(tx.manager)).map((w) => w.id)).toContain(id);
        let deleted = false;
        const deleting = post(`/v2/webhook/delete/${id}/`).then((res) => ((deleted = true), res.status));
        await new Promise((r) => setTimeout(r, 300));
        expect(deleted).toBe(false);
        await tx.query(`INSERT INTO webhook_delivery (webhook_id, event_id, type, payload) VALUES ($1, $2, 'lead.created', '{}')`, [id, `evt-deleted-${id}`]);
        await tx.commitTransaction();
        expect(await deleting).toBe(200);
      } finally {
        if (tx.isTransactionActive) await tx.rollbackTransaction();
        await tx.release();
      }
      expect((await t.ds.query(`SELECT count(*)::int AS n FROM webhook_delivery WHERE webhook_id = $1`, [id]))[0].n).toBe(0);
    });

    it('create honours Idempotency-Key: the same key and body replays {id, secret} and creates nothing', async () => {
      const body = { url: receiver.url(newPath('idem')), events: ['*'], isActive: false };
      const key = `wh-${Date.now()}`;
      const first = await post('/v2/webhook/create/', body).set('Idempotency-Key', key).expect(200);
      const again = await post('/v2/webhook/create/', body).set('Idempotency-Key', key).expect(200);
      expect(again.body.data).toEqual(first.body.data);
      expect(again.headers['idempotent-replayed']).toBe('true');
      await post('/v2/webhook/create/', { ...body, description: 'other' })
        .set('Idempotency-Key', key)
        .expect(409);
    });
  });

  describe('delivery', () => {
    it('delivers lead.created signed: the documented HMAC and the official standardwebhooks verifier both accept it', async () => {
      const order = await createLeadOrder(t);
      const path = newPath('signed');
      const { id, secret } = await createWebhook({ url: receiver.url(path), events: ['lead.created'], orderIds: [order.id] });
      const leadId = await createLead(order);
      const [r] = await eventually(() => receiver.at(path).length > 0 && receiver.at(path), 15_000, 'the delivery');
      const event = JSON.parse(r.body);
      expect(Object.keys(event).sort()).toEqual(['data', 'id', 'timestamp', 'type']);
      expect(event).toMatchObject({ id: r.headers['webhook-id'], type: 'lead.created', data: { lead: { id: leadId, orderId: order.id } } });
      expect(r.headers['content-type']).toMatch(/application\/json/);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
      expect(signaturesOf(r)).toEqual([documentedSignature(secret, r)]);
      expect(new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).toEqual(event);
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(r.body, r.headers as Record<string, string>)).toThrow();

      const deliveries = await eventually(async () => {
        const ds = await deliveriesOf(id, 'delivered');
        return ds.length === 1 && ds;
      });
      expect(deliveries[0]).toMatchObject({ eventId: event.id, type: 'lead.created', status: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null });
    });

    it('during a rotation each delivery carries two signatures: the new and the previous secret both verify', async () => {
      const order = await createLeadOrder(t);
      const path = newPath('rotation');
      const { id, secret: old } = await createWebhook({ url: receiver.url(path), events: ['lead.created'], orderIds: [order.id] });
      const fresh = (await post(`/v2/webhook/rotate-secret/${id}/`).expect(200)).body.data.secret as string;
      expect(fresh).not.toBe(old);
      const d = (await get(`/v2/webhook/detail/${id}/`).expect(200)).body.data;
      const hours = (Date.parse(d.previousSecretExpiresAt) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThanOrEqual(24);
      await createLead(order);
      const [r] = await eventually(() => receiver.at(path).length > 0 && receiver.at(path));
      expect(signaturesOf(r)).toEqual([documentedSignature(fresh, r), documentedSignature(old, r)]);
      for (const s of [fresh, old]) expect(new Webhook(s).verify(r.body, r.headers as Record<string, string>)).toEqual(JSON.parse(r.body));
    });

    it('filters: event types and orders; a test event goes to its own webhook only', async () => {
      const a = await createLeadOrder(t);
      const b = await createLeadOrder(t);
      const createdOfB = newPath('created-of-b');
      const updatedOfA = newPath('updated-of-a');
      const both = newPath('both');
      const w1 = await createWebhook({ url: receiver.url(createdOfB), events: ['lead.created'], orderIds: [b.id] });
      const w2 = await createWebhook({ url: receiver.url(updatedOfA), events: ['lead.updated'], orderIds: [a.id] });
      await createWebhook({ url: receiver.url(both), events: ['*'], orderIds: [a.id, b.id] });
      const leadA = await createLead(a);
      const leadB = await createLead(b);
      await post(`/v2/lead/update/${leadA}/`, { name: 'Renamed' }).expect(200);
      await post(`/v2/lead/update/${leadB}/`, { name: 'Renamed' }).expect(200);
      await post(`/v2/webhook/test/${w1.id}/`).expect(200);
      await eventually(() => receiver.at(both).length >= 4 && receiver.at(createdOfB).length >= 2 && receiver.at(updatedOfA).length >= 1);
      await new Promise((r) => setTimeout(r, 500)); // anything extra would have arrived by now
      const seen = (path: string) =>
        receiver
          .at(path)
          .map((r) => JSON.parse(r.body))
          .map((e) => `${e.type}:${e.data.lead?.id ?? e.data.webhookId}`)
          .sort();
      expect(seen(createdOfB)).toEqual([`lead.created:${leadB}`, `webhook.test:${w1.id}`].sort());
      expect(seen(updatedOfA)).toEqual([`lead.updated:${leadA}`]);
      expect(seen(both)).toEqual([`lead.created:${leadA}`, `lead.created:${leadB}`, `lead.updated:${leadA}`, `lead.updated:${leadB}`].sort());
      expect((await deliveriesOf(w2.id)).map((d) => d.type)).toEqual(['lead.updated']);
    });

    it('retries after 500s with the same webhook-id, and records each attempt', async () => {
      const order = await createLeadOrder(t);
      const path = newPath('flaky');
      receiver.on(path, (n) => ({ status: n < 2 ? 500 : 204 }));
      const { id } = await createWebhook({ url: receiver.url(path), events: ['lead.created'], orderIds: [order.id] });
      await createLead(order);
      const [d] = await eventually(async () => {
        const ds = await deliveriesOf(id, 'delivered');
        return ds.length === 1 && ds;
      });
      expect(d).toMatchObject({ attempts: 3, lastStatusCode: 204, lastError: null });
      const attempts = receiver.at(path);
      expect(attempts).toHaveLength(3);
      expect(new Set(attempts.map((r) => r.headers['webhook-id']))).toEqual(new Set([d.eventId]));
      expect(new Set(attempts.map((r) => r.body)).size).toBe(1);
      expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(250);
    });

    it('an answer slower than the timeout is a failure, retried', async () => {
      const order = await createLeadOrder(t);
      const path = newPath('slow');
      receiver.on(path, (n) => (n === 0 ? { status: 200, delayMs: 2000 } : { status: 200 }));
      const { id } = await createWebhook({ url: receiver.url(path), events: ['lead.created'], orderIds: [order.id] });
      await createLead(order);
      const [d] = await eventually(async () => {
        const ds = await deliveriesOf(id, 'delivered');
        return ds.length === 1 && ds;
      });
      expect(d).toMatchObject({ attempts: 2, lastStatusCode: 200 });
      expect(receiver.at(path)).toHaveLength(2);
    });

    it('the dispatcher makes the first attempt before storing the row; one still running at its budget is recorded when it answers', async () => {
      const order = await createLeadOrder(t);
      const fast = newPath('first-fast');
      const slow = newPath('first-slow');
      // The budget is half the 700 ms timeout: an answer after 400 ms comes once the batch is stored.
      receiver.on(slow, () => ({ status: 200, delayMs: 400 }));
      const a = await createWebhook({ url: receiver.url(fast), events: ['lead.created'], orderIds: [order.id] });
      const b = await createWebhook({ url: receiver.url(slow), events: ['lead.created'], orderIds: [order.id] });
      await createLead(order);
      await eventually(async () => (await deliveriesOf(a.id, 'delivered')).length === 1 && (await deliveriesOf(b.id, 'delivered')).length === 1);
      const rows: { webhook_id: number; attempts: number; recorded_later: boolean }[] = await t.ds.query(
        `SELECT webhook_id, attempts, updated_at > created_at AS recorded_later FROM webhook_delivery WHERE webhook_id = ANY($1) ORDER BY webhook_id`,
        [[a.id, b.id]],
      );
      expect(rows).toEqual([
        { webhook_id: a.id, attempts: 1, recorded_later: false },
        { webhook_id: b.id, attempts: 1, recorded_later: true },
      ]);
      expect(receiver.at(fast)).toHaveLength(1);
      expect(receiver.at(slow)).toHaveLength(1);
    });

    it('when the schedule is used up the delivery is failed; redeliver sends it again', async () => {
      const order = await createLeadOrder(t);
      const path = newPath('down');
      let up = false;
      receiver.on(path, () => ({ status: up ? 200 : 503 }));
      const { id } = await createWebhook({ url: receiver.url(path), events: ['lead.created'], orderIds: [order.id] });
      await createLead(order);
      const [d] = await eventually(async () => {
        const ds = await deliveriesOf(id, 'failed');
        return ds.length === 1 && ds;
      });
      expect(d).toMatchObject({ status: 'failed', attempts: 4, lastStatusCode: 503, lastError: 'HTTP 503' });
      expect(receiver.at(path)).toHaveLength(4);
      // Still active: failures alone disable a webhook only after 5 days without a success.
      expect((await get(`/v2/webhook/detail/${id}/`).expect(200)).body.data.isActive).toBe(true);

      up = true;
      await post(`/v2/webhook/redeliver/${d.id}/`).expect(200);
      const [again] = await eventually(async () => {
        const ds = await deliveriesOf(id, 'delivered');
        return ds.length === 1 && ds;
      });
      expect(again).toMatchObject({ id: d.id, attempts: 5, lastStatusCode: 200 });
      expect(receiver.at(path)).toHaveLength(5);
      expect(receiver.at(path)[4].headers['webhook-id']).toBe(d.eventId);
    });

    it('410 Gone disables the webhook with a reason on detail; turning it on again clears it', async () => {
      const order = await createLeadOrder(t);
      const path = newPath('gone');
      receiver.on(path, () => ({ status: 410 }));
      const { id } = await createWebhook({ url: receiver.url(path), events: ['lead.created'], orderIds: [order.id] });
      await createLead(order);
      const detail = await eventually(async () => {
        const d = (await get(`/v2/webhook/detail/${id}/`).expect(200)).body.data;
        return d.isActive === false && d;
      });
      expect(detail.disabledReason).toMatch(/410 Gone/);
      expect(detail.disabledAt).toEqual(expect.any(String));
      expect(await deliveriesOf(id)).toEqual([expect.objectContaining({ status: 'failed', attempts: 1, lastStatusCode: 410 })]);
      expect(receiver.at(path)).toHaveLength(1);
      await post(`/v2/webhook/test/${id}/`).expect(409);

      await post(`/v2/webhook/update/${id}/`, { isActive: true }).expect(200);
      expect((await get(`/v2/webhook/detail/${id}/`).expect(200)).body.data).toMatchObject({ isActive: true, disabledReason: null, disabledAt: null });
    });

    it('a webhook failing without a success for 5 days is disabled with the reason', async () => {
      const order = await createLeadOrder(t);
      const path = newPath('tired');
      receiver.on(path, () => ({ status: 500 }));
      const { id } = await createWebhook({ url: receiver.url(path), events: ['lead.created'], orderIds: [order.id] });
      await t.ds.query(`UPDATE webhook SET failing_since = now() - interval '121 hours' WHERE id = $1`, [id]);
      await createLead(order);
      const detail = await eventually(async () => {
        const d = (await get(`/v2/webhook/detail/${id}/`).expect(200)).body.data;
        return d.isActive === false && d;
      });
      expect(detail.disabledReason).toMatch(/^deliveries failed without a success since \d{4}-\d\d-\d\dT/);
    });

    it('a success ends a run of failures', async () => {
      const order = await createLeadOrder(t);
      const path = newPath('recovering');
      const { id } = await createWebhook({ url: receiver.url(path), events: ['lead.created'], orderIds: [order.id] });
      await t.ds.query(`UPDATE webhook SET failing_since = now() - interval '100 hours' WHERE id = $1`, [id]);
      await createLead(order);
      await eventually(async () => (await deliveriesOf(id, 'delivered')).length === 1);
      expect((await t.ds.query(`SELECT failing_since FROM webhook WHERE id = $1`, [id]))[0].failing_since).toBeNull();
    });

    it('recording an answer locks the webhook before its deliveries, as a delete does (row, then cascade): the two never deadlock', async () => {
      const { id } = await createWebhook({ url: receiver.url(newPath('record-order')), events: ['*'], isActive: false });
      const [{ id: deliveryId }]: { id: string }[] = await t.ds.query(
        `INSERT INTO webhook_delivery (webhook_id, event_id, type, payload) VALUES ($1, $2, 'lead.created', '{}') RETURNING id`,
        [id, `evt-record-order-${id}`],
      );
      const [hook]: { url: string; secret: string }[] = await t.ds.query(`SELECT url, secret FROM webhook WHERE id = $1`, [id]);
      // A delete that has locked the webhook row and is about to take its deliveries along.
      const deleter = t.ds.createQueryRunner();
      const probe = t.ds.createQueryRunner();
      await deleter.connect();
      await probe.connect();
      try {
        await deleter.startTransaction();
        await deleter.query(`SELECT 1 FROM webhook WHERE id = $1 FOR UPDATE`, [id]);
        const target = {
          id: deliveryId,
          webhookId: id,
          eventId: `evt-record-order-${id}`,
          payload: '{}',
          url: hook.url,
          secret: hook.secret,
          previousSecret: null,
        };
        t.app.get(WebhookDeliveryWorker).recordWhenDone([{ ...target, attempts: 0 }], [Promise.resolve({ statusCode: 500, error: 'HTTP 500' })]);
        // The record waits for the webhook row...
        await eventually(
          async () =>
            (await probe.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))[0].n >= 1,
        );
        // ...holding no lock on the delivery the delete's cascade needs next.
        await probe.startTransaction();
        await probe.query(`SELECT 1 FROM webhook_delivery WHERE id = $1 FOR UPDATE NOWAIT`, [deliveryId]);
        await probe.rollbackTransaction();
        await deleter.rollbackTransaction();
      } finally {
        if (probe.isTransactionActive) await probe.rollbackTransaction();
        if (deleter.isTransactionActive) await deleter.rollbackTransaction();
        await probe.release();
        await deleter.release();
      }
      await eventually(async () => (await t.ds.query(`SELECT attempts FROM webhook_delivery WHERE id = $1`, [deliveryId]))[0].attempts === 1);
      expect((await t.ds.query(`SELECT failing_since FROM webhook WHERE id = $1`, [id]))[0].failing_since).not.toBeNull();
    });

    it('dispatching again from an old cursor creates no delivery twice', async () => {
      const order = await createLeadOrder(t);
      const path = newPath('once');
      const { id } = await createWebhook({ url: receiver.url(path), events: ['lead.created'], orderIds: [order.id] });
      await createLead(order);
      await eventually(async () => (await deliveriesOf(id, 'delivered')).length === 1);
      const count = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM webhook_delivery`))[0].n;
      const before = await count();
      await t.ds.query(`UPDATE webhook_dispatch_cursor SET position = 0`);
      await eventually(async () => Number((await t.ds.query(`SELECT position FROM webhook_dispatch_cursor`))[0].position) > 0);
      await t.app.get(WebhookDispatcher).dispatchAll();
      expect(await count()).toBe(before);
      expect(receiver.at(path)).toHaveLength(1);
    });

    it("a cursor past the events' retention continues from the oldest retained event, and deliveries go on", async () => {
      const order = await createLeadOrder(t);
      const path = newPath('after-retention');
      const { id } = await createWebhook({ url: receiver.url(path), events: ['lead.created'], orderIds: [order.id] });
      const [{ max }] = await t.ds.query(`SELECT coalesce(max(position), 0)::int AS max FROM event`);
      await t.ds.query(`UPDATE event_retention SET pruned_through = $1`, [max]);
      try {
        await t.ds.query(`UPDATE webhook_dispatch_cursor SET position = 1`);
        await createLead(order);
        await eventually(async () => (await deliveriesOf(id, 'delivered')).length === 1);
        expect(receiver.at(path)).toHaveLength(1);
      } finally {
        await t.ds.query(`UPDATE event_retention SET pruned_through = 0`);
      }
    });

    it('lists deliveries with the list wrapper and filters; bad filters are 400', async () => {
      const all = (await get('/v2/webhook/delivery/?limit=2').expect(200)).body.data;
      expect(all.list).toHaveLength(2);
      expect(all.next).toBe(2);
      expect(all.total).toBeGreaterThan(2);
      const failed = (await get('/v2/webhook/delivery/?status=failed&limit=100').expect(200)).body.data;
      expect(failed.list.every((d: { status: string }) => d.status === 'failed')).toBe(true);
      await get('/v2/webhook/delivery/?status=lost').expect(400);
      await get('/v2/webhook/delivery/?webhookId=abc').expect(400);
      await get('/v2/webhook/delivery/?limit=101').expect(400);
    });

    it('reports the delivery backlog on /metrics', async () => {
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM webhook_delivery WHERE status = 'pending'`);
      const text = (await get('/metrics').expect(200)).text;
      expect(text).toMatch(new RegExp(`^webhook_deliveries_pending ${n}$`, 'm'));
      expect(text).toMatch(/^webhook_delivery_oldest_due_seconds \d+$/m);
    });

    it('with no active webhook the cursor follows the head unread: a webhook turned on again gets nothing of its pause', async () => {
      const order = await createLeadOrder(t);
      const path = newPath('paused');
      const { id } = await createWebhook({ url: receiver.url(path), events: ['lead.created'], orderIds: [order.id] });
      await post(`/v2/webhook/update/${id}/`, { isActive: false }).expect(200);
      const others: { id: number }[] = await t.ds.query(`UPDATE webhook SET is_active = false WHERE is_active RETURNING id`);
      try {
        const during = await createLead(order);
        const position = async (sql: string) => Number((await t.ds.query(sql))[0].p);
        // The event is numbered, then the idle dispatcher moves the cursor past it without reading it.
        const [{ p: at }] = await eventually(async () => {
          const rows: { p: string }[] = await t.ds.query(
            `SELECT position AS p FROM event WHERE type = 'lead.created' AND payload->'row'->>'id' = $1 AND position IS NOT NULL`,
            [String(during)],
          );
          return rows.length === 1 && rows;
        });
        await eventually(async () => (await position(`SELECT position AS p FROM webhook_dispatch_cursor`)) >= Number(at));
        await post(`/v2/webhook/update/${id}/`, { isActive: true }).expect(200);
        const after = await createLead(order);
        await eventually(async () => (await deliveriesOf(id, 'delivered')).length === 1);
        expect(receiver.at(path).map((r) => (JSON.parse(r.body) as { data: { lead: { id: number } } }).data.lead.id)).toEqual([after]);
      } finally {
        await t.ds.query(`UPDATE webhook SET is_active = true WHERE id = ANY($1)`, [others.map((o) => o.id)]);
      }
    });
  });

  describe('network policy (flags off)', () => {
    let strict: NestExpressApplication;
    let http: App;

    beforeAll(async () => {
      strict = await createSiblingApp(t, { webhookAllowHttp: false, webhookAllowPrivateNetworks: false });
      http = strict.getHttpServer();
    });
    afterAll(async () => {
      await strict?.close();
    });

    it.each([
      ['https://127.0.0.1/hook', /loopback/],
      ['https://10.1.2.3/hook', /private/],
      ['https://192.168.0.10/hook', /private/],
      ['https://169.254.169.254/latest/meta-data', /linkLocal/],
      ['https://[::1]/hook', /loopback/],
      ['https://[fd00::1]/hook', /uniqueLocal/],
      ['https://[::ffff:127.0.0.1]/hook', /loopback/],
      ['https://2130706433/hook', /loopback/],
      ['https://localhost/hook', /loopback/],
      ['https://0.0.0.0/hook', /unspecified/],
    ])('refuses %s at create and update', async (url, reason) => {
      const res = await request(http)
        .post('/v2/webhook/create/')
        .set('X-Api-Key', t.apiKey)
        .send({ url, events: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual([{ field: 'url', message: expect.stringMatching(reason) }]);
      const { id } = await createWebhook({ url: receiver.url('/parked'), events: ['*'], isActive: false });
      await request(http).post(`/v2/webhook/update/${id}/`).set('X-Api-Key', t.apiKey).send({ url }).expect(400);
      await post(`/v2/webhook/delete/${id}/`).expect(200);
    });

    it('refuses http: unless WEBHOOK_ALLOW_HTTP', async () => {
      const res = await request(http)
        .post('/v2/webhook/create/')
        .set('X-Api-Key', t.apiKey)
        .send({ url: 'http://hooks.example.com/x', events: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual([{ field: 'url', message: expect.stringMatching(/https/) }]);
    });

    it('at delivery, a name resolving to a refused address is not connected to (checked after DNS, on the address used)', async () => {
      const sender = new WebhookSender({ allowPrivate: false, timeoutMs: 2000, maxSockets: 2 });
      try {
        const path = newPath('rebinding');
        for (const url of [`http://localhost:${receiver.port}${path}`, receiver.url(path), `http://[::ffff:127.0.0.1]:${receiver.port}${path}`]) {
          const r = await sender.send(url, {}, '{}');
          expect({ url, r }).toEqual({ url, r: { statusCode: null, error: expect.stringMatching(/^refused: .*loopback/) } });
        }
        expect(receiver.at(path)).toHaveLength(0);
      } finally {
        sender.close();
      }
      const open = new WebhookSender({ allowPrivate: true, timeoutMs: 2000, maxSockets: 2 });
      try {
        const path = newPath('allowed');
        expect(await open.send(`http://localhost:${receiver.port}${path}`, {}, '{}')).toEqual({ statusCode: 200, error: null });
        expect(receiver.at(path)).toHaveLength(1);
      } finally {
        open.close();
      }
    });
  });
});
