import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractPlan, PlannedCall } from './contract-plan';
import { type ContractDoc, deref, type MediaType, type Node, type OperationRef, type ResponseObject } from './openapi-contract';

/** Keywords of JSON Schema 2020-12 that draft-07 (newman's Ajv 6) would ignore, so a check would pass without them. */
const NOT_IN_DRAFT_07 = [
  'prefixItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependentRequired',
  'dependentSchemas',
  '$dynamicRef',
  'minContains',
  'maxContains',
];
/** Keywords whose value is a map of schemas by name, or data rather than a schema. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependencies'];
const DATA = ['example', 'examples', 'const', 'enum', 'default'];
const COMPONENT = '#/components/schemas/';

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An OpenAPI 3.1 schema as draft-07 reads it the same: component references point into
 * `definitions`, and a `$ref` with other keywords becomes an `allOf` (draft-07 ignores a `$ref`'s siblings).
 */
export function toDraft07(schema: unknown, refs: Set<string>, at = ''): unknown {
  if (Array.isArray(schema)) return schema.map((s, i) => toDraft07(s, refs, `${at}/${i}`));
  if (!isNode(schema)) return schema;
  const out: Node = {};
  for (const [k, v] of Object.entries(schema)) {
    if (NOT_IN_DRAFT_07.includes(k)) throw new Error(`${at}: ${k} has no draft-07 equivalent for newman's jsonSchema`);
    if (DATA.includes(k)) out[k] = v;
    else if (SCHEMA_MAPS.includes(k) && isNode(v)) out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, toDraft07(s, refs, `${at}/${k}/${p}`)]));
    else out[k] = toDraft07(v, refs, `${at}/${k}`);
  }
  if (typeof out.$ref !== 'string') return out;
  if (!out.$ref.startsWith(COMPONENT)) throw new Error(`${at}: only component references are bundled, not ${out.$ref}`);
  refs.add(out.$ref.slice(COMPONENT.length));
  const { $ref, ...rest } = out;
  const ref = { $ref: `#/definitions/${$ref.slice(COMPONENT.length)}` };
  return Object.keys(rest).length ? { ...rest, allOf: [ref, ...((rest.allOf as unknown[]) ?? [])] } : ref;
}

/** An operation's documented answers as its test script reads them, with the components they reach as `definitions`. */
function answersOf(doc: ContractDoc, ref: OperationRef) {
  const refs = new Set<string>();
  const responses: Record<string, { content: Record<string, unknown>; headers: Record<string, { required: boolean; types: unknown[]; schema?: unknown }> }> =
    {};
  for (const [status, declared] of Object.entries(ref.op.responses)) {
    const response = deref(doc, declared) as ResponseObject;
    const content = Object.entries(response.content ?? {}).map(([type, media]: [string, MediaType]) => [
      type,
      media.schema ? toDraft07(media.schema, refs) : null,
    ]);
    const headers = Object.entries(response.headers ?? {}).map(([name, h]) => {
      const header = deref(doc, h);
      const schema = header.schema as Node | undefined;
      return [name, { required: header.required === true, types: [schema && deref(doc, schema).type].flat(), schema: schema && toDraft07(schema, refs) }];
    });
    responses[status] = { content: Object.fromEntries(content), headers: Object.fromEntries(headers) };
  }
  const definitions: Record<string, unknown> = {};
  for (const name of refs) definitions[name] = toDraft07(doc.components?.schemas?.[name], refs, `${COMPONENT}${name}`);
  return { responses, definitions };
}

const CHECKS = readFileSync(join(__dirname, 'postman-checks.js'), 'utf8');

/** One request of the collection: the planned call, its prerequisites, and the checks of its answer. */
function itemOf(doc: ContractDoc, call: PlannedCall, index: number, answers: Map<OperationRef['op'], ReturnType<typeof answersOf>>) {
  const header = [
    ...(call.key ? [{ key: 'X-Api-Key', value: `{{key_${call.key}}}` }] : []),
    ...Object.entries(call.headers).map(([key, value]) => ({ key, value })),
  ];
  if (call.body !== undefined) header.push({ key: 'Content-Type', value: 'application/json' });
  if (!answers.has(call.ref.op)) answers.set(call.ref.op, answersOf(doc, call.ref));
  const contract = { check: call.check, aim: call.aim, alternatives: call.alternatives, keeps: call.keeps, ...answers.get(call.ref.op)! };
  const prerequest = `if (!${JSON.stringify(call.needs)}.every((name) => pm.collectionVariables.has(name))) pm.execution.skipRequest();`;
  return {
    name: `${index} ${call.check} ${call.method.toUpperCase()} ${call.ref.path}`,
    request: {
      method: call.method.toUpperCase(),
      url: `{{base_${call.target}}}${call.url}`,
      header,
      ...(call.body === undefined ? {} : { body: { mode: 'raw', raw: call.body } }),
    },
    event: [
      ...(call.needs.length ? [{ listen: 'prerequest', script: { type: 'text/javascript', exec: [prerequest] } }] : []),
      { listen: 'test', script: { type: 'text/javascript', exec: [`const contract = ${JSON.stringify(contract)};`, CHECKS] } },
    ],
  };
}

/**
 * The plan as a Postman collection (v2.1): one request per planned call, in plan order; base URLs
 * and keys are variables the run sets (`base_app`, `base_limited`, `key_<name>`), sent with
 * Postman's own headers but its Postman-Token.
 */
export function collectionOf(doc: ContractDoc, plan: ContractPlan) {
  const answers = new Map<OperationRef['op'], ReturnType<typeof answersOf>>();
  return {
    info: { name: 'Contract tests from /docs-json', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: Object.entries(plan.variables).map(([key, value]) => ({ key, value })),
    protocolProfileBehavior: { disabledSystemHeaders: { 'postman-token': true } },
    item: plan.calls.map((call, index) => itemOf(doc, call, index, answers)),
  };
}
