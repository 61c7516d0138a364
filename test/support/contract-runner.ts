import request, { type Response } from 'supertest';
import type { App } from 'supertest/types';
import type { KeyName, PlannedCall } from './contract-plan';

/**
 * Sends the planned calls of a contract run with supertest: fills `{{name}}` from the values earlier
 * answers left, skips a call whose `needs` are not all set, and keeps what later calls need.
 */
export class PlanRunner {
  constructor(
    private readonly keys: Record<KeyName, string>,
    readonly vars: Map<string, string>,
  ) {}

  fill(text: string): string {
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => this.vars.get(name) ?? '');
  }

  /** The call's URL and answer; undefined when a value it needs is not set. */
  async send(call: PlannedCall, http: App): Promise<{ url: string; res: Response } | undefined> {
    if (call.needs.some((name) => !this.vars.has(name))) return undefined;
    const url = this.fill(call.url);
    let req = request(http)[call.method as 'get' | 'post'](url);
    if (call.key) req = req.set('X-Api-Key', this.keys[call.key]);
    for (const [name, value] of Object.entries(call.headers)) req = req.set(name, this.fill(value));
    if (call.body !== undefined) req = req.set('Content-Type', 'application/json').send(call.body);
    const res = await req;
    if (call.keeps.jobId && typeof res.headers['x-job-id'] === 'string') this.vars.set('jobId', res.headers['x-job-id']);
    if (call.keeps.etag && res.status === 200 && typeof res.headers.etag === 'string') this.vars.set(call.keeps.etag, res.headers.etag);
    if (call.keeps.status && res.status < 300) this.vars.set(call.keeps.status, String(res.status));
    return { url, res };
  }
}
