import request from 'supertest';
import type { TestApp } from '../support/test-app';

/** Reference data made through the management endpoints (admin scope), as an operator would. */

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

async function post<T>(t: TestApp, path: string, body: object): Promise<T> {
  const res = await request(t.http).post(path).set('X-Api-Key', t.apiKey).send(body);
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as T;
}

export async function createUser(t: TestApp, fields: Record<string, unknown> = {}): Promise<number> {
  const data = await post<{ id: number }>(t, '/v2/user/create/', { email: `user-${unique()}@test.example`, ...fields });
  return data.id;
}

export async function createAgentGroup(t: TestApp, fields: Record<string, unknown> = {}): Promise<number> {
  const tag = unique();
  const data = await post<{ id: number }>(t, '/v2/agent-group/create/', { names: { ru: `Группа ${tag}`, gb: `Group ${tag}` }, agentIds: [], ...fields });
  return data.id;
}

/** A valid Russian mobile number in E.164, unused in this test file's database (each file has its own). */
export function uniquePhone(): string {
  seq += 1;
  return `+7916${String(1_000_000 + seq).padStart(7, '0')}`;
}

export async function createSipEndpoint(t: TestApp, fields: Record<string, unknown> = {}): Promise<number> {
  const data = await post<{ id: number }>(t, '/v2/sip-endpoint/create/', { number: uniquePhone(), title: `Line ${unique()}`, ...fields });
  return data.id;
}

export async function createCallScenario(t: TestApp, fields: Record<string, unknown> = {}): Promise<number> {
  const data = await post<{ id: number }>(t, '/v2/call-scenario/create/', { title: `Scenario ${unique()}`, ...fields });
  return data.id;
}

export async function createCallAttemptGroup(t: TestApp, fields: Record<string, unknown> = {}): Promise<number> {
  const data = await post<{ id: number }>(t, '/v2/call-attempt/create/', { title: `Attempts ${unique()}`, intervals: [5, 30], ...fields });
  return data.id;
}
