import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import type { Response } from 'supertest';
import {
  type ContractDoc,
  deref,
  describeErrors,
  type MediaType,
  type Node,
  type Operation,
  type OperationRef,
  type Parameter,
  type ResponseObject,
} from './openapi-contract';

export interface Finding {
  check: string;
  operation: string;
  request: string;
  status: number;
  problems: string[];
}

/** A response header's text as its schema's type, so `X-RateLimit-Limit: 5` validates as an integer. */
function headerValue(text: string, schema: Node): unknown {
  const types = [schema.type].flat();
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (types.includes('boolean') && /^(true|false)$/.test(text)) return text === 'true';
  return text;
}

/**
 * Every response of the contract run checked against its operation in the document: the status is
 * documented, the body validates against that status's schema, each declared header validates.
 * Counts assertions and keeps each failure; the run's report is written to test/output/.
 */
export class ContractLedger {
  assertions = 0;
  readonly findings: Finding[] = [];
  /** Requests built to draw one status that drew another (documented or not, they are checked all the same). */
  readonly notInduced: string[] = [];
  readonly responses: Record<string, number> = {};

  constructor(
    private readonly doc: ContractDoc,
    private readonly validatorFor: (schema: Node) => ValidateFunction,
  ) {}

  static label = (ref: OperationRef) => `${ref.method.toUpperCase()} ${ref.path}${ref.op.operationId ? ` (${ref.op.operationId})` : ''}`;

  check(check: string, ref: OperationRef, request: string, res: Response, expected?: number): void {
    const problems: string[] = [];
    this.responses[res.status] = (this.responses[res.status] ?? 0) + 1;
    if (expected !== undefined && res.status !== expected) this.notInduced.push(`${check}: ${ContractLedger.label(ref)} ${request} answered ${res.status}`);
    const status = String(res.status);
    const declared = ref.op.responses[status] ?? ref.op.responses[`${status[0]}XX`] ?? ref.op.responses.default;
    this.assertions++;
    if (!declared) {
      problems.push(`status ${status} not documented (documented: ${Object.keys(ref.op.responses).join(', ')})`);
    } else {
      const response = deref(this.doc, declared) as ResponseObject;
      problems.push(...this.checkBody(response, res), ...this.checkHeaders(response, res));
    }
    if (problems.length) this.findings.push({ check, operation: ContractLedger.label(ref), request, status: res.status, problems });
  }

  private checkBody(response: ResponseObject, res: Response): string[] {
    const declared = Object.entries(response.content ?? {});
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const media = (declared.find(([t]) => t.toLowerCase() === type) ??
      declared.find(([t]) => t === '*/*' || (t.endsWith('/*') && type.startsWith(t.slice(0, -1)))))?.[1];
    const hasBody = typeof res.text === 'string' && res.text.length > 0;
    if (!hasBody && declared.length === 0) return [];
    this.assertions++;
    if (!hasBody) return declared.some(([, m]) => m.schema) ? ['the documented body is missing'] : [];
    if (!media)
      return [`a ${type || 'body without content-type'} body the response does not document (documented: ${declared.map(([t]) => t).join(', ') || 'no body'})`];
    if (!media.schema) return [];
    const validate = this.validatorFor(media.schema);
    return validate(/json/.test(type) ? res.body : res.text) ? [] : [`body: ${describeErrors(validate.errors)}`];
  }

  private checkHeaders(response: ResponseObject, res: Response): string[] {
    const problems: string[] = [];
    for (const [name, declared] of Object.entries(response.headers ?? {})) {
      const header = deref(this.doc, declared);
      const text = res.headers[name.toLowerCase()] as string | undefined;
      this.assertions++;
      if (text === undefined) {
        if (header.required) problems.push(`header ${name} is required and missing`);
        continue;
      }
      if (!header.schema) continue;
      const validate = this.validatorFor(header.schema as Node);
      if (!validate(headerValue(text, deref(this.doc, header.schema as Node)))) problems.push(`header ${name}: ${text}: ${describeErrors(validate.errors)}`);
    }
    return problems;
  }

  /** A webhook delivery against the document's `webhooks` entry of its event type: body and Standard Webhooks headers. */
  checkDelivery(headers: Record<string, string | string[] | undefined>, body: string): void {
    let event: { type?: string } | undefined;
    try {
      event = JSON.parse(body) as { type?: string };
    } catch {
      event = undefined;
    }
    const type = String(event?.type);
    const hook = deref(this.doc, this.doc.webhooks?.[type])?.post as Operation | undefined;
    const fail = (problems: string[]) =>
      problems.length && this.findings.push({ check: 'webhook', operation: `webhook ${type}`, request: String(headers['webhook-id']), status: 0, problems });
    this.assertions++;
    if (!hook) return void fail([`event type ${type} is not in the document's webhooks (${Object.keys(this.doc.webhooks ?? {}).join(', ') || 'none'})`]);
    const problems: string[] = [];
    const media = (deref(this.doc, hook.requestBody ?? {}).content as Record<string, MediaType> | undefined)?.['application/json'];
    this.assertions++;
    if (!media?.schema) problems.push('no application/json body schema');
    else {
      const validate = this.validatorFor(media.schema);
      if (!validate(event)) problems.push(`body: ${describeErrors(validate.errors)}`);
    }
    for (const p of (hook.parameters ?? []).map((x) => deref(this.doc, x) as unknown as Parameter).filter((x) => x.in === 'header')) {
      const text = headers[p.name.toLowerCase()] as string | undefined;
      this.assertions++;
      if (text === undefined) {
        if (p.required) problems.push(`header ${p.name} is required and missing`);
      } else if (p.schema) {
        const validate = this.validatorFor(p.schema);
        if (!validate(headerValue(text, deref(this.doc, p.schema)))) problems.push(`header ${p.name}: ${text}: ${describeErrors(validate.errors)}`);
      }
    }
    fail(problems);
  }

  of(check: string): Finding[] {
    return this.findings.filter((f) => f.check === check);
  }

  /** The counts, and the whole report in test/output/contract-report.json. */
  report(operations: number): string {
    const summary = { operations, assertions: this.assertions, failures: this.findings.length, responses: this.responses, notInduced: this.notInduced.length };
    const dir = join(__dirname, '..', 'output');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'contract-report.json'), `${JSON.stringify({ ...summary, findings: this.findings, notInduced: this.notInduced }, null, 2)}\n`);
    return `contract: ${operations} operations, ${this.assertions} assertions, ${this.findings.length} failures (test/output/contract-report.json)`;
  }
}
