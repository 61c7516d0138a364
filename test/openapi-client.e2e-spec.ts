import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import request from 'supertest';
import ts from 'typescript';
import { diagnosticsOf, looseSpots } from '../clients/typescript/test/loose-types';
import { createTestApp, TestApp } from './support/test-app';

/** The 200 `application/json` body types an integrator's client reads most; none may be `any` or `unknown`. */
const MAIN_RESPONSES: Record<string, [path: string, method: 'get' | 'post']> = {
  OrderList: ['/v2/order', 'get'],
  OrderDetail: ['/v2/order/detail/{orderId}', 'get'],
  OrderCreate: ['/v2/order/create', 'post'],
  LeadList: ['/v2/lead', 'get'],
  LeadDetail: ['/v2/lead/detail/{leadId}', 'get'],
  LeadCreate: ['/v2/lead/create', 'post'],
  LeadAsyncJob: ['/v2/lead/create-async/{jobId}', 'get'],
  LeadV1Detail: ['/v1/lead/detail/{lead_id}', 'get'],
  CallList: ['/v2/call', 'get'],
  CallDetail: ['/v2/call/detail/{callId}', 'get'],
  UserList: ['/v2/user/list', 'get'],
  UserDetail: ['/v2/user/detail/{userId}', 'get'],
  AgentGroupList: ['/v2/agent-group', 'get'],
  AgentGroupDetail: ['/v2/agent-group/{id}', 'get'],
  CustomFields: ['/v2/custom-field', 'get'],
  LeadStatuses: ['/v2/lead-status', 'get'],
  Health: ['/v1/health/check', 'get'],
};

/** Typed calls an integrator writes against the generated types: each line must compile, each @ts-expect-error must fail. */
const USAGE = `
import type { paths } from './api';
type Json<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type Body<P extends keyof paths> = paths[P] extends { post: { requestBody?: { content: { 'application/json': infer B } } } } ? B : never;

${Object.entries(MAIN_RESPONSES)
  .map(([name, [path, method]]) => `export type ${name} = Json<'${path}', '${method}'>;`)
  .join('\n')}

declare const orders: OrderList;
const code: string = orders.data.list[0].code;
const next: number = orders.data.next;
const limit: number | null = orders.data.list[0].qualifiedLeadsPerDayLimit;
declare const lead: LeadDetail;
const phone: string = lead.data.phone;
const statusId: number = lead.data.statusId;
declare const created: LeadCreate;
const newId: number = created.data.id;
const body: Body<'/v2/lead/create'> = { leadType: 'straight', phone: '+79161234567', orderId: 1, orderCode: 'novostroyki-moskvy' };
// @ts-expect-error orderId is an integer, not a string
const wrong: Body<'/v2/lead/create'> = { leadType: 'straight', phone: '+79161234567', orderId: '1', orderCode: 'x' };
// @ts-expect-error a lead has no such field
lead.data.nonexistent;
declare const v1: LeadV1Detail;
const uf: number = v1.data.UF_CALL_DATE_TIME;
declare const fields: CustomFields;
const fieldTitle: string = fields.data[0].title;
declare const failure: paths['/v2/lead/create']['post']['responses'][400]['content']['application/json'];
const success: boolean = failure.success;
export { code, next, limit, phone, statusId, newId, body, wrong, uf, fieldTitle, success };
`;

describe('a TypeScript client generated from /docs-json', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
    dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  // defaultNonNullable: false (the README says so too): a request field with a default stays optional.
  it('type-checks typed calls, and the main responses carry no any or unknown', async () => {
    const doc = (await request(t.http).get('/docs-json').expect(200)).body as OpenAPI3;
    writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(doc, { defaultNonNullable: false })));
    writeFileSync(join(dir, 'usage.ts'), USAGE);

    const program = ts.createProgram([join(dir, 'usage.ts')], { strict: true, noEmit: true, skipLibCheck: true, types: [], target: ts.ScriptTarget.ES2022 });
    expect(diagnosticsOf(program)).toEqual([]);

    const checker = program.getTypeChecker();
    const usage = program.getSourceFile(join(dir, 'usage.ts'))!;
    const loose: Record<string, string[]> = {};
    for (const statement of usage.statements) {
      if (!ts.isTypeAliasDeclaration(statement) || !(statement.name.text in MAIN_RESPONSES)) continue;
      const type = checker.getTypeAtLocation(statement.name);
      expect({ name: statement.name.text, never: !!(type.flags & ts.TypeFlags.Never) }).toEqual({ name: statement.name.text, never: false });
      const spots = looseSpots(checker, type);
      if (spots.length) loose[statement.name.text] = spots;
    }
    expect(loose).toEqual({});
  });

  it('types every JSON answer of every operation, and every webhook body, without any or unknown', async () => {
    const doc = (await request(t.http).get('/docs-json').expect(200)).body as OpenAPI3 & {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(doc, { defaultNonNullable: false })));
    const aliases = ["import type { paths, webhooks } from './api';"];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (response.content?.['application/json'])
            aliases.push(`export type ${op.operationId}_${status} = paths['${path}']['${method}']['responses'][${status}]['content']['application/json'];`);
        }
      }
    }
    for (const type of Object.keys(doc.webhooks ?? {})) {
      aliases.push(`export type webhook_${type.replace(/\W/g, '_')} = webhooks['${type}']['post']['requestBody']['content']['application/json'];`);
    }
    writeFileSync(join(dir, 'all.ts'), aliases.join('\n'));
    const program = ts.createProgram([join(dir, 'all.ts')], { strict: true, noEmit: true, skipLibCheck: true, types: [], target: ts.ScriptTarget.ES2022 });
    expect(diagnosticsOf(program)).toEqual([]);
    const checker = program.getTypeChecker();
    const loose: Record<string, string[]> = {};
    let count = 0;
    for (const statement of program.getSourceFile(join(dir, 'all.ts'))!.statements) {
      if (!ts.isTypeAliasDeclaration(statement)) continue;
      count++;
      const type = checker.getTypeAtLocation(statement.name);
      const spots = type.flags & ts.TypeFlags.Never ? ['(never)'] : looseSpots(checker, type);
      if (spots.length) loose[statement.name.text] = spots;
    }
    expect(loose).toEqual({});
    expect(count).toBeGreaterThan(500);
  });
});
