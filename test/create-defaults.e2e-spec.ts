import request from 'supertest';
import { type ContractApp, startContractApp } from './support/contract-app';
import { type ContractDoc, deref, operationsOf } from './support/openapi-contract';

type Json = Record<string, unknown>;
/** How a request field's description states what a create stores when the field is left out (common/dto-fields.ts#whenLeftOut). */
const LEFT_OUT = /Left out of a create: (.+)\.$/;

/** The fields of a request schema whose description states a create's value, with that value; `items` for an array of such objects. */
function statedValues(doc: ContractDoc, schema: unknown): Map<string, { value?: unknown; items?: Map<string, { value?: unknown }> }> {
  const stated = new Map<string, { value?: unknown; items?: Map<string, { value?: unknown }> }>();
  const properties = (deref(doc, schema as Json).properties ?? {}) as Record<string, Json>;
  for (const [name, property] of Object.entries(properties)) {
    const said = typeof property.description === 'string' ? LEFT_OUT.exec(property.description) : null;
    if (said) stated.set(name, { value: JSON.parse(said[1]) });
    else if (property.items) {
      const items = statedValues(doc, property.items);
      if (items.size) stated.set(name, { items });
    }
  }
  return stated;
}

const without = (body: Json, names: Iterable<string>) => {
  const left = new Set(names);
  return Object.fromEntries(Object.entries(body).filter(([k]) => !left.has(k)));
};

/**
 * What the document says a create stores for each field left out is what the service stores: every
 * create operation is sent its documented example without those fields, and the record read back.
 */
describe('the values a create stores for fields left out, as the document states them', () => {
  let run: ContractApp;
  beforeAll(async () => {
    run = await startContractApp();
  });
  afterAll(async () => {
    await run?.close();
  });

  it('stores each stated value, for every create operation that states one', async () => {
    const ops = operationsOf(run.doc);
    const problems: string[] = [];
    let checked = 0;
    for (const { method, path, op } of ops.filter((r) => r.method === 'post' && r.path.endsWith('/create'))) {
      const media = (op.requestBody as { content?: Record<string, { schema?: Json; example?: Json }> } | undefined)?.content?.['application/json'];
      const stated = statedValues(run.doc, media?.schema);
      if (!media?.example || stated.size === 0) continue;
      const prefix = path.slice(0, -'/create'.length);
      const detail = ops.find((r) => r.method === 'get' && new RegExp(`^${prefix}/(detail/)?\\{[^}]+\\}$`).test(r.path));
      if (!detail) {
        problems.push(`${method} ${path}: no detail operation to read it back`);
        continue;
      }
      const body = without(
        media.example,
        [...stated].filter(([, s]) => s.value !== undefined).map(([name]) => name),
      );
      for (const [name, { items }] of stated)
        if (items && Array.isArray(body[name])) body[name] = (body[name] as Json[]).map((item) => without(item, items.keys()));
      const created = await request(run.t.http).post(path).set('X-Api-Key', run.t.apiKey).send(body);
      if (created.status !== 200) {
        problems.push(`${path}: ${created.status} ${JSON.stringify(created.body)}`);
        continue;
      }
      const id = String((created.body as { data: { id: number } }).data.id);
      const read = await request(run.t.http)
        .get(detail.path.replace(/\{[^}]+\}/, id))
        .set('X-Api-Key', run.t.apiKey)
        .expect(200);
      const stored = (read.body as { data: Json }).data;
      for (const [name, { value, items }] of stated) {
        if (!items) {
          checked++;
          if (JSON.stringify(stored[name]) !== JSON.stringify(value))
            problems.push(`${path} ${name}: says ${JSON.stringify(value)}, stored ${JSON.stringify(stored[name])}`);
          continue;
        }
        for (const [i, item] of ((stored[name] ?? []) as Json[]).entries()) {
          for (const [field, { value: itemValue }] of items) {
            checked++;
            if (JSON.stringify(item[field]) !== JSON.stringify(itemValue))
              problems.push(`${path} ${name}[${i}].${field}: says ${JSON.stringify(itemValue)}, stored ${JSON.stringify(item[field])}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(20);
  });
});
