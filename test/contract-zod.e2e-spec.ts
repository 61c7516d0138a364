import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import request, { type Response } from 'supertest';
import type { ZodType } from 'zod';
import { type ContractApp, startContractApp } from './support/contract-app';
import { contractPlan, type PlannedCall, urlOf } from './support/contract-plan';
import { PlanRunner } from './support/contract-runner';
import { deref, type OperationRef, operationsOf } from './support/openapi-contract';

/** Inside the repository (ignored by git, ESLint and Prettier), so that the generated file finds `zod` in node_modules. */
const OUTPUT = resolve('test/output', `zod-${process.pid}`);

/**
 * hey-api's zod plugin over `doc`, into OUTPUT: one `z<OperationId>Response` per operation.
 * Timestamps carry an offset (`+00:00`), which RFC 3339 allows and zod accepts with `offset`.
 */
function generateZod(doc: object): Record<string, ZodType> {
  mkdirSync(OUTPUT, { recursive: true });
  writeFileSync(join(OUTPUT, 'openapi.json'), JSON.stringify(doc));
  const config = { input: join(OUTPUT, 'openapi.json'), output: join(OUTPUT, 'client'), plugins: [{ name: 'zod', dates: { offset: true } }] };
  writeFileSync(join(OUTPUT, 'openapi-ts.config.mjs'), `export default ${JSON.stringify(config)};\n`);
  const bin = resolve('node_modules/@hey-api/openapi-ts/bin/run.js');
  execFileSync(process.execPath, [bin, '--file', join(OUTPUT, 'openapi-ts.config.mjs'), '--silent', '--no-log-file'], { cwd: OUTPUT, stdio: 'pipe' });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a file written at run time, loaded through Jest's TypeScript transform
  return require(join(OUTPUT, 'client', 'zod.gen.ts')) as Record<string, ZodType>;
}

const schemaName = (operationId: string) => `z${operationId[0].toUpperCase()}${operationId.slice(1)}Response`;

/**
 * A client that validates answers (hey-api's SDK with its zod plugin) reads every GET of the demo
 * dataset without an error: each operation called as the document's examples say (contract-plan.ts),
 * each 2xx JSON body parsed by the schema generated for that operation.
 */
describe('contract: every GET of the demo dataset parsed by the zod schemas hey-api generates', () => {
  let run: ContractApp;
  let schemas: Record<string, ZodType>;

  beforeAll(async () => {
    run = await startContractApp();
    schemas = generateZod(run.doc);
  });
  afterAll(async () => {
    await run?.close();
    rmSync(OUTPUT, { recursive: true, force: true });
  });

  const failures: string[] = [];
  /** Parses one answer with the schema of its operation; false when it fails. */
  function validate(ref: OperationRef, label: string, res: Response): boolean {
    const schema = schemas[schemaName(ref.op.operationId!)];
    const parsed = schema?.safeParse(res.body);
    if (parsed?.success) return true;
    const issues = parsed ? parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : 'no generated schema';
    failures.push(`${label}: ${issues}`);
    return false;
  }

  it('validates the 2xx answer of every GET operation called as documented', async () => {
    const plan = contractPlan(run.doc);
    const runner = new PlanRunner({ all: run.t.apiKey, telephony: run.t.apiKey, limited: run.t.apiKey }, new Map(Object.entries(plan.variables)));
    // The GETs as documented; the asynchronous create first, whose job the job-status GET reads.
    const wanted = (c: PlannedCall) => c.phase === 'examples' && c.check === '2xx' && (c.method === 'get' || c.ref.path === '/v2/lead/create-async');
    const validated = new Set<string>();
    for (const call of plan.calls.filter(wanted)) {
      const sent = await runner.send(call, run.t.http);
      if (call.method !== 'get') continue;
      const label = `GET ${sent?.url ?? call.url}`;
      if (!sent || sent.res.status >= 300) failures.push(`${label}: ${sent?.res.status ?? 'not sent'} ${JSON.stringify(sent?.res.body)}`);
      else if (!/json/.test(String(sent.res.headers['content-type'])) || validate(call.ref, label, sent.res)) validated.add(`get ${call.ref.path}`);
    }
    const gets = plan.ops.filter((r) => r.method === 'get').map((r) => `get ${r.path}`);
    console.log(`zod (hey-api): ${validated.size} of ${gets.length} GET operations valid as documented`);
    expect(failures).toEqual([]);
    expect(gets.filter((g) => !validated.has(g))).toEqual([]);
  });

  it('validates every record of the demo dataset: each GET with an id in its path, for every id it finds', async () => {
    let answers = 0;
    for (const ref of operationsOf(run.doc).filter((r) => r.method === 'get')) {
      const ids = ref.parameters.filter((p) => p.in === 'path');
      if (ids.length !== 1 || [deref(run.doc, ids[0].schema ?? {}).type].flat()[0] !== 'integer') continue;
      // Ids 1, 2, ... in batches, until a whole batch is not found (the demo's ids have few gaps).
      for (let first = 1, found = true; found; first += BATCH) {
        const batch = Array.from({ length: BATCH }, (_, i) => ref.path.replace(`{${ids[0].name}}`, String(first + i)));
        const answered = await Promise.all(batch.map(async (url) => ({ url, res: await request(run.t.http).get(url).set('X-Api-Key', run.t.apiKey) })));
        const ok = answered.filter(({ res }) => res.status < 300);
        found = ok.length > 0;
        answers += ok.length;
        for (const { url, res } of ok) validate(ref, `GET ${url}`, res);
      }
    }
    console.log(`zod (hey-api): ${answers} answers of the demo records, ${failures.length} failures`);
    expect(failures).toEqual([]);
    expect(answers).toBeGreaterThan(322);
  }, 120_000);

  it('validates every page of every list: offset lists paged to their total, the event feed followed to its end', async () => {
    const get = (url: string) => request(run.t.http).get(url).set('X-Api-Key', run.t.apiKey);
    let pages = 0;
    for (const ref of operationsOf(run.doc).filter((r) => r.method === 'get')) {
      const names = new Set(ref.parameters.filter((p) => p.in === 'query').map((p) => p.name));
      const cursor = names.has('offset') ? 'offset' : names.has('after') ? 'after' : undefined;
      if (!cursor || !names.has('limit')) continue;
      // Only the required filters, so a page holds everything; the documented ones where a list needs one (calls: leadIds or orderIds).
      let base = urlOf(run.doc, ref, { query: 'required' });
      if ((await get(pageUrl(base, cursor, 0))).status === 400) base = urlOf(run.doc, ref, { query: 'examples' });
      for (let at = 0, more = true; more; pages++) {
        const url = pageUrl(base, cursor, at);
        const res = await get(url);
        if (res.status >= 300) {
          failures.push(`GET ${url}: ${res.status} ${JSON.stringify(res.body)}`);
          break;
        }
        validate(ref, `GET ${url}`, res);
        const page = (res.body as { data: { list: unknown[]; next: number; total?: number } }).data;
        more = page.list.length === PAGE && page.next > at;
        at = page.next;
      }
    }
    console.log(`zod (hey-api): ${pages} list pages, ${failures.length} failures`);
    expect(failures).toEqual([]);
    expect(pages).toBeGreaterThan(20);
  }, 120_000);
});

const BATCH = 20;
const PAGE = 100;

/** `url` with the page size and the position of one page. */
function pageUrl(url: string, cursor: 'offset' | 'after', at: number): string {
  const parsed = new URL(url, 'http://localhost');
  parsed.searchParams.set('limit', String(PAGE));
  parsed.searchParams.set(cursor, String(at));
  return `${parsed.pathname}${parsed.search}`;
}
