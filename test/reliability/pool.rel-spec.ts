import { randomUUID } from 'node:crypto';
import { demoSipEndpointId } from './support/fixtures';
import { ConnectionError, HttpClient } from './support/http';
import { percentile, round, Tally } from './support/load';
import { sleep } from './support/postgres';
import { writeFigures } from './support/run-dir';
import { Scenario, startScenario } from './support/scenario';

/**
 * 50 concurrent call records (`POST /v2/call/create/`, telephony-scope key) with DB_POOL_SIZE=5, with the order-settings
 * cache cold (just started, TTL 0) and again once a default 5 s cache would have expired. A path holding one connection
 * (the lead row lock) while waiting for a second (the order settings) deadlocks the pool; every call must succeed.
 */

const CONCURRENT = 50;
const POOL_SIZE = 5;
/** OrdersService caches order settings for 5 s; the second wave comes after they expire. */
const CACHE_EXPIRY_WAIT_MS = 6_000;
const REQUEST_TIMEOUT_MS = 60_000;

interface Wave {
  name: string;
  tally: Tally;
  p50Ms: number;
  maxMs: number;
  stored: number;
}

let s: Scenario;
let telephony: HttpClient;
let leadIds: number[];
let sipEndpointId: number;
const waves: Wave[] = [];

async function wave(name: string): Promise<Wave> {
  const prefix = `rel-pool-${randomUUID()}`;
  const tally = new Tally();
  const latencies: number[] = [];
  await Promise.all(
    leadIds.map(async (leadId, i) => {
      const body = {
        platformCallId: `${prefix}-${i}`,
        leadId,
        sipEndpointId,
        statusId: 2,
        direction: 'outgoing',
        totalDurationSeconds: 30,
        waitTimeDurationSeconds: 30,
        talkTimeDurationSeconds: 0,
      };
      try {
        const r = await telephony.request('POST', '/v2/call/create/', { body, timeoutMs: REQUEST_TIMEOUT_MS });
        tally.add(r.status);
        latencies.push(r.ms);
      } catch (err) {
        if (!(err instanceof ConnectionError)) throw err;
        tally.add(err.code);
      }
    }),
  );
  const stored = Number((await s.db.query(`SELECT count(*) AS n FROM call WHERE platform_call_id LIKE $1`, [`${prefix}-%`])).rows[0].n);
  const w = { name, tally, p50Ms: round(percentile(latencies, 50)), maxMs: round(Math.max(...latencies, 0)), stored };
  waves.push(w);
  return w;
}

beforeAll(async () => {
  // ORDER_SETTINGS_CACHE_TTL_MS=0 keeps the cache cold for every call where the config offers it
  // (an unknown variable is ignored); either way the service has just started.
  s = await startScenario('pool', '919', { DB_POOL_SIZE: String(POOL_SIZE), ORDER_SETTINGS_CACHE_TTL_MS: '0' });
  const created = await s.service.http.request('POST', '/v2/api-key/create/', { body: { name: `rel-telephony-${randomUUID()}`, scopes: ['telephony'] } });
  if (created.status !== 200) throw new Error(`could not create a telephony key: ${created.status} ${JSON.stringify(created.body)}`);
  const key = String(created.body.data.key);
  s.people.secret(key);
  telephony = new HttpClient(`http://127.0.0.1:${s.service.port}`, key, CONCURRENT);
  sipEndpointId = await demoSipEndpointId(s.db);
  // Leads of several orders; nothing has read their order settings since the service started.
  leadIds = (await s.db.query<{ id: number }>(`SELECT id FROM lead ORDER BY id LIMIT $1`, [CONCURRENT])).rows.map((r) => r.id);
}, 180_000);

afterAll(async () => {
  telephony?.close();
  await writeFigures('pool', {
    concurrent: CONCURRENT,
    dbPoolSize: POOL_SIZE,
    waves: waves.map((w) => ({ ...w, tally: w.tally.counts })),
    summary: waves.map((w) => [
      `${CONCURRENT} call records, pool ${POOL_SIZE}, ${w.name}`,
      `${w.tally.get(200)}/${CONCURRENT} succeeded (${JSON.stringify(w.tally.counts)}), ${w.stored} stored, p50 ${w.p50Ms} ms, max ${w.maxMs} ms`,
    ]),
  });
  await s?.close();
}, 60_000);

describe(`${CONCURRENT} concurrent call records with DB_POOL_SIZE=${POOL_SIZE}`, () => {
  it('all succeed with the order-settings cache cold (service just started)', async () => {
    const w = await wave('cold cache');
    expect(w.tally.counts).toEqual({ 200: CONCURRENT });
    expect(w.stored).toBe(CONCURRENT);
  });

  it('all succeed again once the cache has expired', async () => {
    await sleep(CACHE_EXPIRY_WAIT_MS);
    const w = await wave('expired cache');
    expect(w.tally.counts).toEqual({ 200: CONCURRENT });
    expect(w.stored).toBe(CONCURRENT);
  });
});
