import { randomUUID } from 'node:crypto';
import { leadBody } from './support/fixtures';
import { ConnectionError } from './support/http';
import { atFixedRate, eachLimited, percentile, round, sendUntilAcknowledged, Tally } from './support/load';
import { sleep } from './support/postgres';
import { writeFigures } from './support/run-dir';
import { Scenario, startScenario } from './support/scenario';

/**
 * A campaign launch: 5,000 `POST /v2/lead/create-async/` from 16 clients as fast as they can, beside a steady sync load
 * (lead creates and detail reads at a fixed rate) until the queue drains. The workers must not starve the sync requests
 * (zero 503 there), and all 5,000 jobs must be done within a bounded wait.
 */

const BURST = 5_000;
const BURST_CLIENTS = 16;
const SYNC_CREATES_PER_S = 4;
const SYNC_READS_PER_S = 8;
/** After the last job is accepted, the queue must drain within this. */
const DRAIN_WITHIN_MS = 240_000;

let s: Scenario;
const asyncTally = new Tally();
const syncTally = new Tally();
const syncLatencies: number[] = [];
const jobIds: string[] = [];
const markers: string[] = [];
const f = { sendSeconds: 0, drainSeconds: 0, jobStates: {} as Record<string, number>, duplicated: 0, lost: 0, syncRequests: 0 };

async function syncRequest(method: 'GET' | 'POST', path: string, body?: unknown): Promise<void> {
  try {
    const r = await s.service.http.request(method, path, { body, timeoutMs: 30_000 });
    syncTally.add(r.status);
    syncLatencies.push(r.ms);
  } catch (err) {
    syncTally.add(err instanceof ConnectionError ? err.code : 'error');
  }
}

async function jobStates(): Promise<Record<string, number>> {
  const r = await s.db.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM lead_async_job WHERE id = ANY($1::uuid[]) GROUP BY state`, [
    jobIds,
  ]);
  return Object.fromEntries(r.rows.map((row) => [row.state, row.n]));
}

beforeAll(async () => {
  s = await startScenario('burst', '917');
  const demoLeads = (await s.db.query<{ id: number }>(`SELECT id FROM lead ORDER BY id LIMIT 200`)).rows.map((r) => r.id);
  const bodies = Array.from({ length: BURST }, () => {
    const marker = `burst-${randomUUID()}`;
    markers.push(marker);
    return leadBody(s.order, s.people, marker);
  });

  let drained = false;
  const syncCreates = atFixedRate(
    SYNC_CREATES_PER_S,
    () => drained,
    () => syncRequest('POST', '/v2/lead/create/', leadBody(s.order, s.people)),
  );
  const syncReads = atFixedRate(
    SYNC_READS_PER_S,
    () => drained,
    (i) => syncRequest('GET', `/v2/lead/detail/${demoLeads[i % demoLeads.length]}/`),
  );

  const sendStart = Date.now();
  await eachLimited(bodies, BURST_CLIENTS, async (body) => {
    const ack = await sendUntilAcknowledged(
      s.service.http,
      'POST',
      '/v2/lead/create-async/',
      { body, headers: { 'Idempotency-Key': randomUUID() } },
      {
        maxMs: 120_000,
        onAttempt: (outcome) => asyncTally.add(outcome),
      },
    );
    if (ack.ok) jobIds.push(String(ack.result.headers['x-job-id']));
  });
  f.sendSeconds = round((Date.now() - sendStart) / 1000);

  const drainDeadline = Date.now() + DRAIN_WITHIN_MS;
  for (;;) {
    f.jobStates = await jobStates();
    if ((f.jobStates.queued ?? 0) === 0 || Date.now() > drainDeadline) break;
    await sleep(2000);
  }
  f.drainSeconds = round((Date.now() - sendStart) / 1000);
  drained = true;
  f.syncRequests = (await syncCreates) + (await syncReads);

  const counts = await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM lead WHERE external_id_crm_a = ANY($1) GROUP BY external_id_crm_a`, [markers]);
  f.duplicated = counts.rows.filter((r) => r.n > 1).length;
  const done = await s.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM lead_async_job j WHERE j.id = ANY($1::uuid[]) AND j.state = 'done' AND NOT EXISTS (SELECT 1 FROM lead l WHERE l.id = j.lead_id)`,
    [jobIds],
  );
  f.lost = done.rows[0].n;
}, 600_000);

afterAll(async () => {
  const syncNon200 = syncTally.total() - syncTally.get(200);
  await writeFigures('burst', {
    burst: BURST,
    burstClients: BURST_CLIENTS,
    syncRatePerS: { creates: SYNC_CREATES_PER_S, reads: SYNC_READS_PER_S },
    accepted: jobIds.length,
    asyncAnswers: asyncTally.counts,
    syncAnswers: syncTally.counts,
    syncLatencyMs: { p50: round(percentile(syncLatencies, 50)), p95: round(percentile(syncLatencies, 95)), max: round(Math.max(0, ...syncLatencies)) },
    ...f,
    summary: [
      [
        `${BURST} async creates (${BURST_CLIENTS} clients)`,
        `${jobIds.length} accepted in ${f.sendSeconds} s, async answers ${JSON.stringify(asyncTally.counts)}`,
      ],
      ['jobs', `${JSON.stringify(f.jobStates)} ${f.drainSeconds} s after the burst began; lost ${f.lost}, duplicated ${f.duplicated}`],
      [
        `sync side (${SYNC_CREATES_PER_S} creates + ${SYNC_READS_PER_S} reads /s)`,
        `503: ${syncTally.get(503)}, other non-200: ${syncNon200 - syncTally.get(503)} of ${syncTally.total()} ${JSON.stringify(syncTally.counts)}; ` +
          `p50 ${round(percentile(syncLatencies, 50))} ms, p95 ${round(percentile(syncLatencies, 95))} ms, max ${round(Math.max(0, ...syncLatencies))} ms`,
      ],
    ],
  });
  await s?.close();
}, 60_000);

describe(`an async burst of ${BURST} beside a steady sync load`, () => {
  it('zero 503 on the sync side', () => {
    expect(syncTally.total()).toBeGreaterThan(0);
    expect(syncTally.get(503)).toBe(0);
  });

  it('every sync request succeeds', () => {
    expect(syncTally.counts).toEqual({ 200: syncTally.total() });
  });

  it(`all ${BURST} jobs are accepted and done within the bounded wait, each lead once`, () => {
    expect(jobIds.length).toBe(BURST);
    expect(f.jobStates).toEqual({ done: BURST });
    expect({ lost: f.lost, duplicated: f.duplicated }).toEqual({ lost: 0, duplicated: 0 });
  });
});
