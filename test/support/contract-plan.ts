import { bodyLimitFor } from '../../src/common/body-limits';
import { type ContractDoc, deref, type OperationRef, operationsOf, parameterExample, requestBodyOf, wronglyTypedBody } from './openapi-contract';

/** The tests of a contract run, in their order; `examples` also makes the 304 and 409 calls. */
export const PHASES = ['401', '403', '404', '400', '413', '429', 'examples'] as const;
export type Phase = (typeof PHASES)[number];
/** Keys the run holds: every scope, the telephony scope only, and the key spent on the rate-limited sibling. */
export type KeyName = 'all' | 'telephony' | 'limited';

/**
 * One request of the contract run, as data: the Jest contract test sends it with supertest and the
 * Postman collection carries it to newman. `{{name}}` in the URL or a header is a value an earlier
 * answer left (`keeps`); a call whose `needs` are not all set is not sent.
 */
export interface PlannedCall {
  phase: Phase;
  /** The label its answer is filed under: the status aimed at, or 2xx. */
  check: string;
  ref: OperationRef;
  /** The app on the demo dataset, or its sibling that allows one request per key (429). */
  target: 'app' | 'limited';
  key?: KeyName;
  method: string;
  /** Path and query string. */
  url: string;
  headers: Record<string, string>;
  /** The JSON text sent, if any. */
  body?: string;
  /** The status aimed at: a number, any 2xx, or the status an earlier call kept under that name. */
  aim: number | '2xx' | { same: string };
  /** Other statuses the request may draw, and why. */
  alternatives: { status: number; why: string }[];
  needs: string[];
  keeps: { jobId?: true; etag?: string; status?: string };
}

export interface ContractPlan {
  ops: OperationRef[];
  calls: PlannedCall[];
  /** Starting values of the `{{name}}` variables. */
  variables: Record<string, string>;
}

const MISSING_ID = 999_999_999;
const MISSING_UUID = '00000000-0000-4000-8000-000000000000';
const asText = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
const isVariable = (v: unknown) => typeof v === 'string' && /^\{\{\w+\}\}$/.test(v);

interface Shape {
  path?: (name: string, example: unknown) => unknown;
  query?: 'examples' | 'required';
}

/** The URL of an operation with its parameter examples (or the overrides of `shape`). */
export function urlOf(doc: ContractDoc, ref: OperationRef, shape: Shape): string {
  let url = ref.path;
  const query: string[] = [];
  for (const p of ref.parameters) {
    const example = parameterExample(doc, p);
    if (p.in === 'path') {
      const value = shape.path ? shape.path(p.name, example) : example;
      url = url.replace(`{${p.name}}`, isVariable(value) ? String(value) : encodeURIComponent(asText(value)));
    }
    const wanted = shape.query === 'examples' ? example !== undefined : p.required;
    if (p.in === 'query' && wanted && example !== undefined) {
      for (const v of [example].flat()) query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(asText(v))}`);
    }
  }
  return query.length ? `${url}?${query.join('&')}` : url;
}

export const isSecured = (doc: ContractDoc, ref: OperationRef) => (ref.op.security ?? doc.security ?? []).length > 0;
const hasIdempotencyKey = (ref: OperationRef) => ref.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
const bodyText = (body: unknown) => (body === undefined ? undefined : JSON.stringify(body));

/** The plan of one contract run over `doc`: every operation once per answer it can be made to give. */
export function contractPlan(doc: ContractDoc): ContractPlan {
  const ops = operationsOf(doc);
  const call = (phase: Phase, ref: OperationRef, shape: Shape, rest: Partial<PlannedCall>): PlannedCall => ({
    phase,
    check: phase,
    ref,
    target: 'app',
    method: ref.method,
    url: urlOf(doc, ref, shape),
    headers: {},
    aim: Number(phase),
    alternatives: [],
    needs: [],
    keeps: {},
    ...rest,
  });
  const calls = [...refusals(doc, ops, call), ...rateLimited(doc, ops, call), ...examples(doc, ops, call)];
  const jobId = ops.flatMap((r) => r.parameters).find((p) => p.in === 'path' && p.name === 'jobId');
  return { ops, calls, variables: { jobId: String(jobId ? parameterExample(doc, jobId) : MISSING_UUID) } };
}

type CallOf = (phase: Phase, ref: OperationRef, shape: Shape, rest: Partial<PlannedCall>) => PlannedCall;

/** 401, 403, 404, 400 and 413: requests built to be refused. */
function refusals(doc: ContractDoc, ops: OperationRef[], call: CallOf): PlannedCall[] {
  const calls: PlannedCall[] = [];
  const secured = ops.filter((r) => isSecured(doc, r));
  for (const ref of secured) calls.push(call('401', ref, { query: 'examples' }, { body: bodyText(requestBodyOf(doc, ref.op)?.body) }));
  for (const ref of secured) {
    const body = requestBodyOf(doc, ref.op);
    // A body of the wrong types, so that an operation the key may call refuses it and changes nothing; a read the document
    // says the telephony scope may call (its description names the 403 without it) answers.
    const telephonyRead = !body && /403 without the telephony scope/.test(ref.op.description ?? '');
    const alternatives = body
      ? [{ status: 400, why: 'the telephony scope may call it: the body of the wrong types is refused' }]
      : telephonyRead
        ? [{ status: 200, why: 'a read the telephony scope may call' }]
        : [];
    calls.push(call('403', ref, { query: 'examples' }, { key: 'telephony', body: body && bodyText(wronglyTypedBody(doc, body.schema)), alternatives }));
  }
  const missing = (name: string, example: unknown) =>
    typeof example === 'string' && !/^\d+$/.test(example) ? MISSING_UUID : name === 'jobId' ? MISSING_UUID : MISSING_ID;
  for (const ref of ops.filter((r) => r.parameters.some((p) => p.in === 'path'))) {
    const body = requestBodyOf(doc, ref.op)?.body;
    calls.push(call('404', ref, { path: missing, query: 'required' }, { key: 'all', body: bodyText(body) }));
  }
  for (const ref of ops) {
    const body = requestBodyOf(doc, ref.op);
    const integerPath = ref.parameters.find((p) => p.in === 'path' && [deref(doc, p.schema ?? {}).type].flat().includes('integer'));
    const limit = ref.parameters.find((p) => p.in === 'query' && p.name === 'limit');
    if (body) calls.push(call('400', ref, { query: 'required' }, { key: 'all', body: bodyText(wronglyTypedBody(doc, body.schema)) }));
    else if (integerPath)
      calls.push(call('400', ref, { query: 'required', path: (name, example) => (name === integerPath.name ? 'abc' : example) }, { key: 'all' }));
    else if (limit) {
      const outOfRange = { ...ref, parameters: [...ref.parameters.filter((p) => p !== limit), { ...limit, required: true, example: 100_000 }] };
      calls.push({ ...call('400', outOfRange, { query: 'required' }, { key: 'all' }), ref });
    }
  }
  for (const ref of ops.filter((r) => requestBodyOf(doc, r.op))) {
    const url = urlOf(doc, ref, { query: 'required' });
    calls.push(call('413', ref, { query: 'required' }, { key: 'all', body: JSON.stringify({ pad: 'x'.repeat(bodyLimitFor(url.split('?')[0]) + 1) }) }));
  }
  return calls;
}

/** 429: on the sibling allowing one request per key, a first request spends the budget and every secured operation is refused. */
function rateLimited(doc: ContractDoc, ops: OperationRef[], call: CallOf): PlannedCall[] {
  const secured = ops.filter((r) => isSecured(doc, r));
  const first = ops.find((r) => r.path === '/v2/order' && r.method === 'get') ?? secured[0];
  const limited = { target: 'limited' as const, key: 'limited' as const };
  return [
    call('429', first, { query: 'examples' }, { ...limited, aim: 200 }),
    ...secured.map((ref) => call('429', ref, { query: 'examples' }, { ...limited, body: bodyText(requestBodyOf(doc, ref.op)?.body) })),
  ];
}

/** Reads first, then creates, then changes; revoking a key last (it must not be the key in use). */
const rank = (ref: OperationRef) =>
  ref.method === 'get' ? (ref.parameters.some((p) => p.name === 'jobId') ? 3 : 0) : /\/create/.test(ref.path) ? 1 : /\/revoke\//.test(ref.path) ? 4 : 2;

/** Every operation as documented (2xx); a GET again with its ETag (304); an Idempotency-Key replayed (same answer, then 409). */
function examples(doc: ContractDoc, ops: OperationRef[], call: CallOf): PlannedCall[] {
  const calls: PlannedCall[] = [];
  const run = Date.now();
  [...ops]
    .sort((a, b) => rank(a) - rank(b))
    .forEach((ref, i) => {
      const body = requestBodyOf(doc, ref.op)?.body;
      const shape: Shape = { query: 'examples', path: (name, example) => (name === 'jobId' ? '{{jobId}}' : example) };
      const headers: Record<string, string> = hasIdempotencyKey(ref) ? { 'Idempotency-Key': `contract-${i}-${run}` } : {};
      const etag = ref.method === 'get' ? `etag_${i}` : undefined;
      const status = headers['Idempotency-Key'] ? `status_${i}` : undefined;
      const example = { key: 'all' as const, headers, body: bodyText(body) };
      calls.push(call('examples', ref, shape, { ...example, check: '2xx', aim: '2xx', keeps: { jobId: true, etag, status } }));
      if (etag) {
        const alternatives = [{ status: 200, why: 'the representation changed between the two requests (a new ETag)' }];
        calls.push(
          // With the Cache-Control: no-cache that fetch adds to every If-None-Match: still a 304.
          call('examples', ref, shape, {
            ...example,
            check: '304',
            headers: { 'If-None-Match': `{{${etag}}}`, 'Cache-Control': 'no-cache' },
            aim: 304,
            alternatives,
            needs: [etag],
          }),
        );
      }
      if (!status) return;
      const other = typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, contractProbe: 1 } : [body, 1];
      calls.push(call('examples', ref, shape, { ...example, check: '409', aim: { same: status }, needs: [status] }));
      calls.push(call('examples', ref, shape, { ...example, check: '409', body: bodyText(other), aim: 409, needs: [status] }));
    });
  return calls;
}
