import request from 'supertest';
import { insertOrderReferences, minimalOrderBody, OrderRefs } from './factories/orders';
import { createTestApp, TestApp } from './support/test-app';

/**
 * An order's references (agents, agent groups, SIP endpoints, attempt group, scenario) are
 * checked by the modules that own those tables, each in one batched query whatever the number of
 * ids: a create with many references costs no more statements than one with one of each.
 */
describe('order references', () => {
  let t: TestApp;
  let refs: OrderRefs;

  beforeAll(async () => {
    t = await createTestApp();
    refs = await insertOrderReferences(t.ds);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Statements reading the reference tables while `work` runs; every statement runs on a query runner of the data source. */
  async function referenceReads(work: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const original = t.ds.createQueryRunner.bind(t.ds);
    t.ds.createQueryRunner = (...args: Parameters<typeof t.ds.createQueryRunner>) => {
      const runner = original(...args);
      const query = runner.query.bind(runner);
      runner.query = ((sql: string, ...rest: unknown[]) => {
        seen.push(sql);
        return (query as (...a: unknown[]) => unknown)(sql, ...rest);
      }) as typeof runner.query;
      return runner;
    };
    try {
      await work();
    } finally {
      t.ds.createQueryRunner = original;
    }
    return seen.filter((sql) => /\bFROM\s+"?(app_user|agent_group|sip_endpoint|call_attempt_group|call_scenario)"?/.test(sql));
  }

  const create = (body: Record<string, unknown>) => request(t.http).post('/v2/order/create/').set('X-Api-Key', t.apiKey).send(body);

  it('checks each kind of reference in one query, however many ids it names', async () => {
    const one = { agentUserIds: [refs.users[0]], agentGroupIds: [refs.groups[0]], sipEndpointIds: [refs.sips[0]] };
    const many = { agentUserIds: refs.users, agentGroupIds: refs.groups, sipEndpointIds: refs.sips };
    const common = { callAttemptGroupId: refs.otherAttemptGroup, callScenarioId: refs.scenario };
    const few = await referenceReads(() => create(minimalOrderBody(refs, { ...one, ...common })).expect(200));
    const lots = await referenceReads(() => create(minimalOrderBody(refs, { ...many, ...common })).expect(200));
    expect(few).toHaveLength(5);
    expect(lots).toHaveLength(few.length);
  });

  it('names every missing reference in one 400', async () => {
    const res = await create(minimalOrderBody(refs, { agentUserIds: [refs.users[0], 999_001], sipEndpointIds: [999_002], callScenarioId: 999_003 })).expect(
      400,
    );
    expect(res.body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(['agentUserIds', 'callScenarioId', 'sipEndpointIds']);
  });
});
