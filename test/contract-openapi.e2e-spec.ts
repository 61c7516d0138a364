import type { NestExpressApplication } from '@nestjs/platform-express';
import type { App } from 'supertest/types';
import { verifyWebhook } from '../clients/typescript/src';
import { type ContractApp, startContractApp } from './support/contract-app';
import { ContractLedger } from './support/contract-ledger';
import { contractPlan, type ContractPlan, type Phase, type PlannedCall } from './support/contract-plan';
import { PlanRunner } from './support/contract-runner';
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
  let runner: PlanRunner;

  beforeAll(async () => {
    run = await startContractApp();
    plan = contractPlan(run.doc);
    ledger = new ContractLedger(run.doc, schemaValidator(run.doc));
    const keys = { all: run.t.apiKey, telephony: await run.t.keyWith('telephony'), limited: await run.t.keyWith('api', 'admin', 'telephony') };
    runner = new PlanRunner(keys, new Map(Object.entries(plan.variables)));
  });
  afterAll(async () => {
    if (ledger) console.log(ledger.report(plan.ops.length));
    await run?.close();
  });

  /** Sends one planned call and files its answer in the ledger. */
  async function send(call: PlannedCall, http: App) {
    const sent = await runner.send(call, http);
    if (!sent) return;
    const { url, res } = sent;
    const expected = typeof call.aim === 'number' ? call.aim : call.aim === '2xx' ? undefined : Number(runner.vars.get(call.aim.same));
    ledger.check(call.check, call.ref, `${call.method.toUpperCase()} ${url}`, res, expected);
    if (call.aim === '2xx' && res.status >= 300) {
      ledger.findings.push({ check: '2xx', operation: ContractLedger.label(call.ref), request: url, status: res.status, problems: [JSON.stringify(res.body)] });
    }
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
