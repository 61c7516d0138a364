import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { App } from 'supertest/types';
import { verifyWebhook } from '../clients/typescript/src';
import { type ContractApp, startContractApp } from './support/contract-app';
import { ContractLedger } from './support/contract-ledger';
import { contractPlan, type ContractPlan, type KeyName, type Phase, type PlannedCall } from './support/contract-plan';
import { eventually } from './support/fake-servers';
import { schemaValidator } from './support/openapi-contract';
import { createSiblingApp } from './support/test-app';

/**
 * Contract tests generated from the served document: every operation called on the demo dataset as
 * documented and once per answer it can be made to give (304, 400, 401, 403, 404, 409, 413, 429);
 * each answer's status, body and declared headers checked against the document (contract-ledger.ts).
 * The calls are those of contract-plan.ts, which contract-newman.e2e-spec.ts also runs through newman.
 */
describe('contract: every operation of /docs-json on the demo dataset', () => {
  let run: ContractApp;
  let plan: ContractPlan;
  let ledger: ContractLedger;
  const keys = {} as Record<KeyName, string>;
  const vars = new Map<string, string>();

  beforeAll(async () => {
    run = await startContractApp();
    plan = contractPlan(run.doc);
    for (const [name, value] of Object.entries(plan.variables)) vars.set(name, value);
    ledger = new ContractLedger(run.doc, schemaValidator(run.doc));
    keys.all = run.t.apiKey;
    keys.telephony = await run.t.keyWith('telephony');
    keys.limited = await run.t.keyWith('api', 'admin', 'telephony');
  });
  afterAll(async () => {
    if (ledger) console.log(ledger.report(plan.ops.length));
    await run?.close();
  });

  const fill = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars.get(name) ?? '');

  /** Sends one planned call, files its answer in the ledger and keeps what later calls need. */
  async function send(call: PlannedCall, http: App) {
    if (call.needs.some((name) => !vars.has(name))) return;
    const url = fill(call.url);
    let req = request(http)[call.method as 'get' | 'post'](url);
    if (call.key) req = req.set('X-Api-Key', keys[call.key]);
    for (const [name, value] of Object.entries(call.headers)) req = req.set(name, fill(value));
    if (call.body !== undefined) req = req.set('Content-Type', 'application/json').send(call.body);
    const res = await req;
    const expected = typeof call.aim === 'number' ? call.aim : call.aim === '2xx' ? undefined : Number(vars.get(call.aim.same));
    ledger.check(call.check, call.ref, `${call.method.toUpperCase()} ${url}`, res, expected);
    if (call.aim === '2xx' && res.status >= 300) {
      ledger.findings.push({ check: '2xx', operation: ContractLedger.label(call.ref), request: url, status: res.status, problems: [JSON.stringify(res.body)] });
    }
    if (call.keeps.jobId && typeof res.headers['x-job-id'] === 'string') vars.set('jobId', res.headers['x-job-id']);
    if (call.keeps.etag && res.status === 200 && typeof res.headers.etag === 'string') vars.set(call.keeps.etag, res.headers.etag);
    if (call.keeps.status && res.status < 300) vars.set(call.keeps.status, String(res.status));
  }

  async function runPhase(phase: Phase, limited?: App) {
    for (const call of plan.calls.filter((c) => c.phase === phase)) await send(call, call.target === 'limited' ? limited! : run.t.http);
  }

  it('covers every operation of the document', () => {
    expect(plan.ops.length).toBeGreaterThanOrEqual(60);
    const ids = plan.ops.map((ref) => ref.op.operationId);
    expect(ids.filter((id, i) => !id || ids.indexOf(id) !== i)).toEqual([]);
  });

  it('401 without a key, for every secured operation', async () => {
    await runPhase('401');
    expect(ledger.of('401')).toEqual([]);
  });

  it('403 for a key without the scope, for every secured operation (a body of the wrong types, so a permitted call changes nothing)', async () => {
    await runPhase('403');
    expect(ledger.of('403')).toEqual([]);
  });

  it('404 for every operation with a path parameter, naming a record that does not exist', async () => {
    await runPhase('404');
    expect(ledger.of('404')).toEqual([]);
  });

  it('400 for a body of the wrong types, a malformed path id or an out-of-range limit', async () => {
    await runPhase('400');
    expect(ledger.of('400')).toEqual([]);
  });

  it('413 for a body above the route limit, for every operation with a body', async () => {
    await runPhase('413');
    expect(ledger.of('413')).toEqual([]);
  });

  it('429 once the key has spent its budget, for every secured operation', async () => {
    let limited: NestExpressApplication | undefined;
    try {
      limited = await createSiblingApp(run.t, { rateLimitRequests: 1, rateLimitWindowSeconds: 86400 });
      await runPhase('429', limited.getHttpServer());
    } finally {
      await limited?.close();
    }
    expect(ledger.of('429')).toEqual([]);
  });

  it('2xx for every documented example, 304 for a GET repeated with its ETag, 409 for a reused Idempotency-Key with another body', async () => {
    await runPhase('examples');
    expect(ledger.of('2xx')).toEqual([]);
    expect(ledger.of('304')).toEqual([]);
    expect(ledger.of('409')).toEqual([]);
  });

  it('delivers every event the run caused as the webhooks of the document describe it, signed as documented', async () => {
    const { deliveries } = run;
    let seen = -1;
    // Deliveries settle when a second passes without a new one.
    await eventually(
      async () => {
        const settled = deliveries.length > 0 && deliveries.length === seen;
        seen = deliveries.length;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        return settled;
      },
      30_000,
      'webhook deliveries to settle',
    );
    for (const d of deliveries) ledger.checkDelivery(d.headers, d.body);
    const types = new Set(deliveries.map((d) => (JSON.parse(d.body) as { type: string }).type));
    console.log(`webhooks: ${deliveries.length} deliveries of ${[...types].sort().join(', ')}`);
    expect(types.has('lead.created')).toBe(true);
    const unverified = deliveries.filter((d) => {
      try {
        verifyWebhook(run.webhookSecret, d.body, d.headers);
        return false;
      } catch {
        return true;
      }
    });
    expect(unverified.map((d) => d.headers['webhook-id'])).toEqual([]);
    expect(ledger.of('webhook')).toEqual([]);
  });

  it('reports every status it drew from each targeted check', () => {
    const statuses = Object.keys(ledger.responses).map(Number);
    expect(statuses).toEqual(expect.arrayContaining([200, 304, 400, 401, 403, 404, 409, 413, 429]));
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
