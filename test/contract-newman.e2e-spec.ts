import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import newman, { type NewmanRunOptions, type NewmanRunSummary } from 'newman';
import type { CollectionDefinition } from 'postman-collection';
import { type ContractApp, startContractApp } from './support/contract-app';
import { collectionOf } from './support/contract-collection';
import { contractPlan, type ContractPlan } from './support/contract-plan';
import { createSiblingApp } from './support/test-app';

const runNewman = (options: NewmanRunOptions) =>
  new Promise<NewmanRunSummary>((resolve, reject) => newman.run(options, (err, summary) => (err ? reject(err) : resolve(summary))));

const baseUrl = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/**
 * The contract run of contract-openapi.e2e-spec.ts (the calls of contract-plan.ts) as a Postman
 * collection built from the served document, run by newman against the app on the demo dataset over
 * real HTTP: each request's test script checks its status, validates its body against the document's
 * schema for that status, and checks its declared headers. Webhook deliveries stay in the Jest run.
 */
describe('contract: the calls of the contract run as a Postman collection, run by newman', () => {
  let run: ContractApp;
  let limited: NestExpressApplication;
  let plan: ContractPlan;
  let summary: NewmanRunSummary;
  let seconds = 0;

  beforeAll(async () => {
    run = await startContractApp();
    limited = await createSiblingApp(run.t, { rateLimitRequests: 1, rateLimitWindowSeconds: 86400 });
    await run.t.app.listen(0, '127.0.0.1');
    await limited.listen(0, '127.0.0.1');
    plan = contractPlan(run.doc);
    const collection = collectionOf(run.doc, plan) as unknown as CollectionDefinition;
    const envVar = [
      { key: 'base_app', value: baseUrl(run.t.app.getHttpServer()) },
      { key: 'base_limited', value: baseUrl(limited.getHttpServer()) },
      { key: 'key_all', value: run.t.apiKey },
      { key: 'key_telephony', value: await run.t.keyWith('telephony') },
      { key: 'key_limited', value: await run.t.keyWith('api', 'admin', 'telephony') },
    ];
    const started = Date.now();
    summary = await runNewman({ collection, envVar, timeoutRequest: 30_000 });
    seconds = Math.round((Date.now() - started) / 1000);
  }, 240_000);
  afterAll(async () => {
    await limited?.close();
    await run?.close();
  });

  it('answers every request as the document says: 0 failures', () => {
    const { stats, failures, executions } = summary.run;
    const sent = executions.filter((e) => e.response);
    const operations = new Set(sent.map((e) => plan.calls[parseInt(e.item.name, 10)].ref.op.operationId));
    const found = failures.map((f) => `${f.source?.name ?? f.at}: ${f.error.test ?? ''} ${f.error.message}`);
    mkdirSync(join(__dirname, 'output'), { recursive: true });
    writeFileSync(join(__dirname, 'output', 'newman-report.json'), `${JSON.stringify({ stats, failures: found }, null, 2)}\n`);
    console.log(
      `newman: ${operations.size} operations, ${plan.calls.length} planned requests, ${stats.requests.total} sent ` +
        `(${plan.calls.length - sent.length} not sent: what they need no earlier answer gave), ` +
        `${stats.assertions.total} assertions, ${stats.assertions.failed} failed, ${failures.length} failures in ${seconds} s (test/output/newman-report.json)`,
    );
    expect(found).toEqual([]);
    expect(stats.requests.failed).toBe(0);
    expect(stats.testScripts.failed).toBe(0);
    expect([...operations].sort()).toEqual(plan.ops.map((ref) => ref.op.operationId).sort());
    expect(stats.assertions.total).toBeGreaterThan(plan.calls.length * 3);
  });
});
