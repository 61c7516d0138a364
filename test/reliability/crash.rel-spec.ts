import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { leadBody } from './support/fixtures';
import { eachLimited, round, sendUntilAcknowledged, Tally } from './support/load';
import { sleep } from './support/postgres';
import { writeFigures } from './support/run-dir';
import { Scenario, startScenario } from './support/scenario';

/**
 * Sync and async lead creates, resent with one Idempotency-Key until acknowledged, while the postmaster is killed (-9)
 * and restarted, then every backend terminated. Without a service restart: each acknowledged lead exists once and reaches
 * the `lead.created` webhook, each job is done within 60 s of recovery, no answer is a 500, and health is 200 again.
 */

const SYNC_CLIENTS = 6;
const ASYNC_CLIENTS = 6;
const WARM_UP_MS = 4_000;
const OUTAGE_MS = 8_000;
const BETWEEN_FAULTS_MS = 8_000;
const AFTER_FAULTS_MS = 8_000;
/** A client gives up on a request after this long (it is then unacknowledged, not lost). */
const CLIENT_PATIENCE_MS = 90_000;
const JOBS_DONE_WITHIN_MS = 60_000;
const FAULT_WINDOW_TAIL_MS = 10_000;
/** Every acknowledged lead's lead.created must reach the webhook within this after the jobs are settled. */
const DELIVERED_WITHIN_MS = 90_000;

/** What the webhook receiver got: lead.created bodies (lead id and marker) and how many requests in all. */
const received = { requests: 0, leads: new Map<string, Set<number>>() };
let receiver: Server;

async function startReceiver(): Promise<string> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.requests += 1;
      const e = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: { lead?: { id: number; externalIdCrmA: string } } };
      if (e.type === 'lead.created' && e.data.lead) {
        const ids = received.leads.get(e.data.lead.externalIdCrmA) ?? new Set<number>();
        received.leads.set(e.data.lead.externalIdCrmA, ids.add(e.data.lead.id));
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
}

interface Sent {
  kind: 'sync' | 'async';
  marker: string;
  outcomes: string[];
  acknowledged: boolean;
  sentAt: number;
  ackAt?: number;
  leadId?: number;
  jobId?: string;
}

let s: Scenario;
const sent: Sent[] = [];
const all = new Tally();
const inFaults = new Tally();
const times = { killedAt: 0, restartedAt: 0, terminatedAt: 0, recoveredAt: 0, terminatedBackends: 0 };
let stopClients = false;

const faultWindow = (at: number) =>
  (times.killedAt > 0 && at >= times.killedAt && (times.restartedAt === 0 || at <= times.restartedAt + FAULT_WINDOW_TAIL_MS)) ||
  (times.terminatedAt > 0 && at >= times.terminatedAt && at <= times.terminatedAt + FAULT_WINDOW_TAIL_MS);

async function client(kind: 'sync' | 'async'): Promise<void> {
  const path = kind === 'sync' ? '/v2/lead/create/' : '/v2/lead/create-async/';
  while (!stopClients) {
    const marker = randomUUID();
    const rec: Sent = { kind, marker, outcomes: [], acknowledged: false, sentAt: Date.now() };
    sent.push(rec);
    const body = leadBody(s.order, s.people, marker);
    const ack = await sendUntilAcknowledged(
      s.service.http,
      'POST',
      path,
      { body, headers: { 'Idempotency-Key': randomUUID() } },
      {
        maxMs: CLIENT_PATIENCE_MS,
        onAttempt: (outcome, at) => {
          rec.outcomes.push(outcome);
          all.add(outcome);
          if (faultWindow(at)) inFaults.add(outcome);
        },
      },
    );
    if (ack.ok) {
      rec.acknowledged = true;
      rec.ackAt = Date.now();
      if (kind === 'sync') rec.leadId = Number(ack.result.body?.data?.id);
      else rec.jobId = String(ack.result.headers['x-job-id'] ?? '');
    }
    await sleep(20);
  }
}

interface Verdict {
  acknowledged: { sync: number; async: number };
  unacknowledged: number;
  lost: string[];
  duplicated: string[];
  stuck: string[];
  /** Finished, but more than 60 s after recovery (or after their acceptance, when later). */
  late: string[];
  failedJobs: string[];
  slowestAcknowledgementS: number;
  /** Seconds from recovery (or the job's later acceptance) to done, for the slowest job. */
  slowestJobS: number | null;
  healthOkAfterRecoveryS: number | null;
  serviceRestarted: boolean;
  /** Acknowledged leads whose lead.created never reached the webhook. */
  undelivered: string[];
  /** lead.created deliveries of leads that do not exist (or not with that marker). */
  phantomDeliveries: string[];
  webhookRequests: number;
}
let verdict: Verdict | undefined;

/** The slowest job, in seconds from when it could start: recovery, or its acceptance when later. */
function slowestJob(jobs: Sent[], states: Map<string, JobState>): number | null {
  const waits = jobs
    .filter((j) => states.get(j.jobId!)?.status === 'done')
    .map((j) => states.get(j.jobId!)!.finishedAt - Math.max(times.recoveredAt, j.ackAt!));
  return waits.length ? round(Math.max(0, ...waits) / 1000) : null;
}

async function countByMarker(): Promise<Map<string, number>> {
  const r = await s.db.query<{ m: string; n: number }>(
    `SELECT external_id_crm_a AS m, count(*)::int AS n FROM lead WHERE external_id_crm_a = ANY($1) GROUP BY 1`,
    [sent.map((x) => x.marker)],
  );
  return new Map(r.rows.map((row) => [row.m, row.n]));
}

/** A job is due within 60 s of recovery, or of its acceptance when that came later. */
const jobDeadline = (j: Sent) => Math.max(times.recoveredAt, j.ackAt!) + JOBS_DONE_WITHIN_MS;

interface JobState {
  status: string;
  leadId: number | null;
  /** When the job finished (the API's finishedAt), else when this poll first saw it finished. */
  finishedAt: number;
}

/** Polls every accepted job through the API until each is done (or failed) or past its deadline. */
async function waitForJobs(jobs: Sent[]): Promise<Map<string, JobState>> {
  const states = new Map<string, JobState>();
  const finished = (j: Sent) => ['done', 'failed'].includes(states.get(j.jobId!)?.status ?? '');
  for (;;) {
    await eachLimited(
      jobs.filter((j) => !finished(j)),
      8,
      async (j) => {
        const r = await s.service.http.request('GET', `/v2/lead/create-async/${j.jobId}/`).catch(() => null);
        if (r?.status !== 200) return;
        const { status, leadId, finishedAt } = r.body.data as { status: string; leadId: number | null; finishedAt: string | null };
        states.set(j.jobId!, { status, leadId, finishedAt: finishedAt ? Date.parse(finishedAt) : Date.now() });
      },
    );
    const open = jobs.filter((j) => !finished(j));
    if (open.length === 0 || open.every((j) => Date.now() > jobDeadline(j))) return states;
    await sleep(1000);
  }
}

/** Polls the health check from the moment of recovery: it must come back by itself. */
async function healthAfterRecovery(): Promise<number | null> {
  const deadline = times.recoveredAt + 60_000;
  while (Date.now() < deadline) {
    const r = await s.service.http.request('GET', '/v1/health/check/', { timeoutMs: 10_000 }).catch(() => null);
    if (r?.status === 200) return Date.now();
    await sleep(1000);
  }
  return null;
}

beforeAll(async () => {
  const hookUrl = await startReceiver();
  s = await startScenario('crash', '916', { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '200' });
  const servicePid = s.service.pid;
  const hook = await s.service.http.request('POST', '/v2/webhook/create/', { body: { url: hookUrl, events: ['lead.created'], orderIds: [s.order.id] } });
  if (hook.status !== 200) throw new Error(`webhook create: ${hook.status} ${JSON.stringify(hook.body)}`);
  const clients = [...Array.from({ length: SYNC_CLIENTS }, () => client('sync')), ...Array.from({ length: ASYNC_CLIENTS }, () => client('async'))];

  await sleep(WARM_UP_MS);
  times.killedAt = Date.now();
  await s.pg.kill9();
  await sleep(OUTAGE_MS);
  await s.pg.startProcess();
  times.restartedAt = Date.now();
  await sleep(BETWEEN_FAULTS_MS);
  times.terminatedAt = Date.now();
  times.terminatedBackends = await s.pg.terminateClientBackends();
  times.recoveredAt = Date.now();
  const health = healthAfterRecovery();
  await sleep(AFTER_FAULTS_MS);
  stopClients = true;
  await Promise.all(clients);
  await s.reconnect();

  const healthAt = await health;
  const asyncAcked = sent.filter((x) => x.kind === 'async' && x.acknowledged);
  const states = await waitForJobs(asyncAcked);
  const counts = await countByMarker();
  const existing = new Set(
    (
      await s.db.query<{ id: number; m: string }>(`SELECT id, external_id_crm_a AS m FROM lead WHERE id = ANY($1)`, [
        sent.filter((x) => x.leadId).map((x) => x.leadId),
      ])
    ).rows.map((r) => `${r.id}:${r.m}`),
  );
  // Every lead that exists for an acknowledged request (sync id, or the done job's lead) must be delivered.
  const expectedLeads = new Map<string, number>();
  for (const x of sent.filter((y) => y.acknowledged)) {
    const id = x.kind === 'sync' ? x.leadId : states.get(x.jobId!)?.leadId;
    if (id) expectedLeads.set(x.marker, id);
  }
  const missing = () => [...expectedLeads].filter(([m, id]) => !received.leads.get(m)?.has(id));
  const deliveryDeadline = Date.now() + DELIVERED_WITHIN_MS;
  while (missing().length > 0 && Date.now() < deliveryDeadline) await sleep(500);
  const deliveredPairs = [...received.leads].flatMap(([m, ids]) => [...ids].map((id) => ({ m, id })));
  const stored = new Set(
    (await s.db.query<{ id: number; m: string }>(`SELECT id, external_id_crm_a AS m FROM lead WHERE id = ANY($1)`, [deliveredPairs.map((p) => p.id)])).rows.map(
      (r) => `${r.id}:${r.m}`,
    ),
  );
  const lost: string[] = [];
  for (const x of sent.filter((y) => y.acknowledged)) {
    if (x.kind === 'sync' && !existing.has(`${x.leadId}:${x.marker}`)) lost.push(`sync lead ${x.leadId} (marker ${x.marker})`);
    if ((counts.get(x.marker) ?? 0) === 0 && (x.kind === 'sync' || states.get(x.jobId!)?.status === 'done')) lost.push(`${x.kind} ${x.marker}: no lead`);
    const st = x.jobId ? states.get(x.jobId) : undefined;
    if (st?.status === 'done' && st.leadId === null) lost.push(`job ${x.jobId}: done without leadId`);
  }
  verdict = {
    acknowledged: { sync: sent.filter((x) => x.kind === 'sync' && x.acknowledged).length, async: asyncAcked.length },
    unacknowledged: sent.filter((x) => !x.acknowledged).length,
    lost,
    duplicated: [...counts].filter(([, n]) => n > 1).map(([m, n]) => `${m}: ${n} leads`),
    stuck: asyncAcked
      .filter((x) => states.get(x.jobId!)?.status !== 'done' && states.get(x.jobId!)?.status !== 'failed')
      .map((x) => `${x.jobId}: ${states.get(x.jobId!)?.status ?? 'unknown'}`),
    late: asyncAcked.filter((x) => states.has(x.jobId!) && states.get(x.jobId!)!.finishedAt > jobDeadline(x) + 1000).map((x) => String(x.jobId)),
    failedJobs: asyncAcked.filter((x) => states.get(x.jobId!)?.status === 'failed').map((x) => String(x.jobId)),
    slowestJobS: slowestJob(asyncAcked, states),
    slowestAcknowledgementS: round(Math.max(0, ...sent.filter((x) => x.ackAt).map((x) => x.ackAt! - x.sentAt)) / 1000),
    healthOkAfterRecoveryS: healthAt ? round((healthAt - times.recoveredAt) / 1000) : null,
    serviceRestarted: !s.service.running || s.service.pid !== servicePid,
    undelivered: missing().map(([m, id]) => `lead ${id} (marker ${m})`),
    phantomDeliveries: deliveredPairs.filter((p) => !stored.has(`${p.id}:${p.m}`)).map((p) => `lead ${p.id} (marker ${p.m})`),
    webhookRequests: received.requests,
  };
}, 400_000);

afterAll(async () => {
  const v = verdict;
  await writeFigures('crash', {
    clients: { sync: SYNC_CLIENTS, async: ASYNC_CLIENTS },
    timeline: {
      warmUpMs: WARM_UP_MS,
      outageMs: OUTAGE_MS,
      betweenFaultsMs: BETWEEN_FAULTS_MS,
      afterFaultsMs: AFTER_FAULTS_MS,
      terminatedBackends: times.terminatedBackends,
    },
    answers: all.counts,
    answersInFaultWindows: inFaults.counts,
    verdict: v && {
      ...v,
      undelivered: v.undelivered.slice(0, 50),
      phantomDeliveries: v.phantomDeliveries.slice(0, 50),
      lost: v.lost.slice(0, 50),
      duplicated: v.duplicated.slice(0, 50),
      stuck: v.stuck.slice(0, 50),
      late: v.late.slice(0, 50),
    },
    summary: v
      ? [
          [
            'acknowledged (sync / async)',
            `${v.acknowledged.sync} / ${v.acknowledged.async}; unacknowledged after ${CLIENT_PATIENCE_MS / 1000} s: ${v.unacknowledged}`,
          ],
          ['lost / duplicated', `${v.lost.length} / ${v.duplicated.length}`],
          [
            'jobs stuck / late / failed',
            `${v.stuck.length} / ${v.late.length} / ${v.failedJobs.length}; slowest done ${v.slowestJobS ?? '-'} s after recovery or its later acceptance (limit ${JOBS_DONE_WITHIN_MS / 1000})`,
          ],
          ['slowest acknowledgement', `${v.slowestAcknowledgementS} s from first send; 409 "in progress" answers to retries: ${all.get(409)}`],
          ['503 vs 500 (all attempts)', `${all.get(503)} vs ${all.get(500)} of ${all.total()} (${JSON.stringify(all.counts)})`],
          ['503 vs 500 (fault windows)', `${inFaults.get(503)} vs ${inFaults.get(500)} of ${inFaults.total()}`],
          [
            'webhook: undelivered / phantom',
            `${v.undelivered.length} / ${v.phantomDeliveries.length} of ${[...received.leads.values()].reduce((n, ids) => n + ids.size, 0)} leads delivered (${v.webhookRequests} requests, at-least-once)`,
          ],
          [
            'health 200 after recovery',
            v.healthOkAfterRecoveryS === null ? 'not within 60 s' : `${v.healthOkAfterRecoveryS} s${v.serviceRestarted ? ' (service restarted!)' : ''}`,
          ],
        ]
      : [['scenario', 'did not complete']],
  });
  await s?.close();
  if (receiver) {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}, 60_000);

describe('kill -9 of PostgreSQL and terminated backends under sync and async lead creates', () => {
  it('the service stays up and acknowledges leads', () => {
    expect(verdict!.serviceRestarted).toBe(false);
    expect(verdict!.acknowledged.sync).toBeGreaterThan(0);
    expect(verdict!.acknowledged.async).toBeGreaterThan(0);
  });

  it('every acknowledged lead exists (none lost)', () => {
    expect(verdict!.lost).toEqual([]);
  });

  it('no lead exists twice (none duplicated)', () => {
    expect(verdict!.duplicated).toEqual([]);
  });

  it('every accepted job is done within 60 s of recovery', () => {
    expect({ stuck: verdict!.stuck, late: verdict!.late, failed: verdict!.failedJobs }).toEqual({ stuck: [], late: [], failed: [] });
  });

  it('no answer was a 500 (an unavailable database is a 503)', () => {
    expect(all.get(500)).toBe(0);
  });

  it("every acknowledged lead's lead.created reaches the subscribed webhook, and none of a lead that does not exist", () => {
    expect(verdict!.undelivered).toEqual([]);
    expect(verdict!.phantomDeliveries).toEqual([]);
    expect(received.leads.size).toBeGreaterThanOrEqual(verdict!.acknowledged.sync);
  });

  it('the health check is 200 again without restarting the service', () => {
    expect(verdict!.healthOkAfterRecoveryS).not.toBeNull();
  });
});
