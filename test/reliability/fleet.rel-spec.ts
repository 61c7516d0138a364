import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MIGRATIONS } from '../../migrations';
import { demoOrder, DemoOrder, People } from './support/fixtures';
import { Fleet, Instance } from './support/fleet';
import { Attempt, LedgerVerdict, LoadRun, notCutOn, verifyLedger, WebhookReceiver } from './support/fleet-load';
import { haproxyBinary } from './support/haproxy';
import { HttpClient } from './support/http';
import { sleep } from './support/postgres';
import { RESULTS_DIR, runState, writeFigures, writeNeedles } from './support/run-dir';

/**
 * The service run as ops run it: HAProxy (health checks on /health/ready every 500 ms) in front of
 * 3 API instances, and 2 worker-only instances, on one PostgreSQL. Cold start of all five at once on
 * an empty database; a rolling restart (SIGTERM, one instance at a time) under load through an
 * entrance that never retries; SIGKILL of an API instance through one that retries refused
 * connections; the rate limit and idempotent replays across instances.
 */

const API_INSTANCES = 3;
const WORKER_INSTANCES = 2;
/** Load: 50 clients, each creating a lead and reading it back, then pausing about THINK_MS (sized for 2 cores). */
const CLIENTS = 50;
const THINK_MS = 500;
const DRAIN_S = 3;
const WARM_UP_MS = 3000;
const KILL_LOAD_MS = 6000;
const SETTLE_WITHIN_MS = 90_000;
const RATE_LIMIT = 30;

const binary = haproxyBinary();
if (!binary && process.env.CI === 'true') throw new Error('the fleet test needs HAProxy: apt-get install haproxy (.ci/run installs it)');
const describeWithHaproxy = binary ? describe : describe.skip;
if (!binary) process.stdout.write('fleet.rel-spec: skipped, no HAProxy on this machine (apt-get install haproxy, or set HAPROXY_PATH)\n');

type Row = [phase: string, requests: string, failures: string, latency: string, leads: string, jobs: string, deliveries: string];
const rows: Row[] = [];
const figures: Record<string, unknown> = { clients: CLIENTS, thinkMs: THINK_MS, drainSeconds: DRAIN_S };

let fleet: Fleet;
let order: DemoOrder;
const people = new People('919');
const hook = new WebhookReceiver();
let lb: HttpClient;
let hookUrl: string;

const failureText = (f: Record<string, number>) =>
  Object.keys(f).length
    ? Object.entries(f)
        .map(([k, n]) => `${n} x ${k}`)
        .join(', ')
    : '0';

function loadRow(phase: string, run: LoadRun, v: LedgerVerdict): Row {
  const { p50, p99 } = run.latency();
  return [
    phase,
    String(run.attempts.length),
    failureText(run.failures()),
    `${p50} / ${p99} ms`,
    `${v.acknowledged} / ${v.lost.length} / ${v.duplicated.length}`,
    `${v.jobs.accepted} / ${v.jobs.done}`,
    `${v.deliveries.delivered} / ${v.deliveries.expected}, ${hook.overlapping} overlapping`,
  ];
}

function renderTable(): string {
  const header: Row = [
    'phase',
    'requests',
    'failed (by kind)',
    'p50 / p99',
    'leads acked / lost / dup',
    'jobs accepted / done',
    'lead.created delivered / expected',
  ];
  const all = [header, ...rows];
  const w = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(w[i])).join(' | ')} |`;
  return [line(header), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n');
}

beforeAll(async () => {
  if (!binary) return;
  hookUrl = await hook.start();
  fleet = await Fleet.create('fleet', { kind: 'embedded' }, API_INSTANCES, WORKER_INSTANCES, {
    SEED_DEMO: 'true',
    SHUTDOWN_DRAIN_SECONDS: String(DRAIN_S),
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_POLL_INTERVAL_MS: '200',
    ACCESS_LOG: 'false',
  });
  await fleet.startBalancer(binary);
  lb = new HttpClient(fleet.lb.plainUrl, fleet.apiKey, 128);
}, 120_000);

afterAll(async () => {
  if (!binary) return;
  const table = renderTable();
  process.stdout.write(`\nFleet: ${API_INSTANCES} API instances behind HAProxy + ${WORKER_INSTANCES} workers, ${CLIENTS} clients\n${table}\n`);
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(path.join(RESULTS_DIR, 'fleet.md'), `${table}\n`);
  await writeFigures('fleet', { ...figures, table: rows, summary: rows.map((r) => [r[0], r.slice(1).join('; ')]) });
  await writeNeedles('fleet', people.needles);
  lb?.close();
  await fleet?.close();
  await hook.close();
  await copyFile(path.join(runState().runDir, 'fleet-haproxy.log'), path.join(RESULTS_DIR, 'fleet-haproxy.log')).catch(() => undefined);
}, 120_000);

describeWithHaproxy('a fleet behind a load balancer', () => {
  let phaseStartedAt = 0;
  const phaseSeconds: Record<string, number> = {};
  figures.phaseSeconds = phaseSeconds;
  beforeEach(() => {
    phaseStartedAt = Date.now();
  });
  afterEach(() => {
    const name = String(expect.getState().currentTestName).replace('a fleet behind a load balancer ', '').split(':')[0];
    phaseSeconds[name] = Math.round((Date.now() - phaseStartedAt) / 1000);
  });

  it('cold start: all five at once on an empty database migrate, seed and register the key once, and all become ready', async () => {
    const at = Date.now();
    await Promise.all(fleet.instances.map((i) => fleet.start(i)));
    const readyS = (Date.now() - at) / 1000;
    await fleet.connect();
    order = await demoOrder(fleet.db);
    const migrations = await fleet.db.query<{ name: string; n: number }>(`SELECT name, count(*)::int AS n FROM migrations GROUP BY name`);
    expect(migrations.rows.map((r) => r.name).sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
    expect(migrations.rows.filter((r) => r.n !== 1)).toEqual([]);
    const migrated = fleet.instances.filter((i) => /migrations applied:/.test(i.process!.logTail(500))).map((i) => i.name);
    expect(migrated).toHaveLength(1);
    const keys = await fleet.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM api_key WHERE name = 'env:API_KEY'`);
    expect(keys.rows[0].n).toBe(1);
    const twice = await fleet.db.query(`SELECT code FROM call_order GROUP BY code HAVING count(*) > 1`);
    expect(twice.rows).toEqual([]);
    const states = await fleet.lb.states();
    expect(Object.values(states).every((s) => s.startsWith('UP'))).toBe(true);
    figures.coldStart = { readySeconds: readyS, migratedBy: migrated };
    rows.push(['cold start (5 at once)', '-', '0 (all ready)', `${readyS.toFixed(1)} s to all ready`, '-', '-', `migrations by ${migrated.join('')}`]);
    const created = await lb.request('POST', '/v2/webhook/create/', {
      body: { url: hookUrl, events: ['lead.created'], orderIds: [order.id] },
    });
    expect(created.status).toBe(200);
  });

  it('rolling restart under load with SIGTERM: no failed request, nothing lost or duplicated, every job done, every lead delivered', async () => {
    const run = new LoadRun(lb, order, people, THINK_MS);
    run.start(CLIENTS);
    await sleep(WARM_UP_MS);
    const exits: Record<string, string> = {};
    for (const i of [...fleet.apis, ...fleet.workers]) {
      const { code, ms } = await fleet.terminate(i);
      exits[i.name] = `${code} in ${(ms / 1000).toFixed(1)} s`;
      await fleet.start(i);
    }
    await sleep(WARM_UP_MS);
    await run.stop();
    const v = await verifyLedger(fleet.db, lb, run.leads, hook, SETTLE_WITHIN_MS);
    figures.rolling = { exits, failures: run.failures(), resent: run.attempts.filter((a) => a.resent), verdict: v };
    rows.push(loadRow('rolling restart (SIGTERM, 5 in turn)', run, v));
    expect(Object.values(exits).every((e) => e.startsWith('0 '))).toBe(true);
    expect(run.failures()).toEqual({});
    expect({ lost: v.lost, duplicated: v.duplicated, jobsNotDone: v.jobs.notDone, undelivered: v.deliveries.missing }).toEqual({
      lost: [],
      duplicated: [],
      jobsNotDone: [],
      undelivered: [],
    });
    expect(v.jobs.accepted).toBeGreaterThan(0);
    expect(hook.overlapping).toBe(0);
  });

  it('SIGKILL of an API instance: only requests in flight on it fail, nothing lost or duplicated', async () => {
    const retrying = new HttpClient(fleet.lb.retryingUrl, fleet.apiKey, 128);
    const run = new LoadRun(retrying, order, people, THINK_MS);
    run.start(CLIENTS);
    await sleep(WARM_UP_MS);
    const victim: Instance = fleet.apis[1];
    const killedAt = Date.now();
    // The signal is sent at once; the process is gone when its exit is seen (its sockets reset then).
    const { ms: dyingMs } = await fleet.terminate(victim, 'SIGKILL');
    const diedAt = killedAt + dyingMs;
    await sleep(KILL_LOAD_MS);
    await fleet.start(victim);
    await run.stop();
    const failed = run.failedRequests();
    const inFlight = run.inFlight(killedAt, diedAt).length;
    await sleep(1000); // HAProxy logs a request once its stream ends, just after the answer
    const log = (await fleet.lb.requests()).filter((l) => l.frontend === 'retrying');
    const notCut = notCutOn(victim.name, killedAt, diedAt, failed, log);
    const fromKill = (a: Attempt) => ({ ...a, startMs: a.startedAt - killedAt, endMs: a.endedAt - killedAt });
    const failedAttempts = run.attempts.filter((a) => !a.ok || a.resent).map(fromKill);
    const v = await verifyLedger(fleet.db, retrying, run.leads, hook, SETTLE_WITHIN_MS);
    retrying.close();
    const twice = new Set(v.duplicatedRows.map((r) => r.marker));
    const duplicates = { leads: v.duplicatedRows, attempts: run.attempts.filter((a) => twice.has(a.marker)).map(fromKill) };
    figures.kill = {
      killedAt: new Date(killedAt).toISOString(),
      inFlightAtKill: inFlight,
      dyingMs,
      failedRequests: failed.length,
      failedAttempts,
      duplicates,
      failures: run.failures(),
      verdict: v,
    };
    rows.push(loadRow(`kill -9 of ${victim.name} (${inFlight} requests in flight, ${failed.length} cut on it)`, run, v));
    // A request fails only if the victim had it when it died (a keyed create's tries count as one request).
    expect(notCut).toEqual([]);
    // The attribution rests on HAProxy's log: it holds at least every request answered.
    expect(log.length).toBeGreaterThanOrEqual(run.attempts.filter((a) => a.outcome !== 'ECONNRESET').length);
    expect({ lost: v.lost, duplicated: v.duplicated, jobsNotDone: v.jobs.notDone, undelivered: v.deliveries.missing }).toEqual({
      lost: [],
      duplicated: [],
      jobsNotDone: [],
      undelivered: [],
    });
  });

  it('shared state: an idempotent create replays on another instance; the rate limit holds across instances', async () => {
    await Promise.all(fleet.apis.map((i) => fleet.terminate(i)));
    await Promise.all(fleet.apis.map((i) => fleet.start(i, { RATE_LIMIT_REQUESTS: String(RATE_LIMIT) })));
    const [a, b, c] = fleet.apis.map((i) => i.process!.http);
    const body = { leadType: 'straight', phone: people.phone(), orderId: order.id, orderCode: order.code, name: people.name(), externalIdCrmA: 'fleet-replay' };
    const first = await a.request('POST', '/v2/lead/create/', { body, headers: { 'Idempotency-Key': 'fleet-replay' } });
    const again = await b.request('POST', '/v2/lead/create/', { body, headers: { 'Idempotency-Key': 'fleet-replay' } });
    expect(first.status).toBe(200);
    expect({ status: again.status, replayed: again.headers['idempotent-replayed'], id: again.body.data.id }).toEqual({
      status: 200,
      replayed: 'true',
      id: first.body.data.id,
    });
    const stored = await fleet.db.query(`SELECT id FROM lead WHERE external_id_crm_a = 'fleet-replay'`);
    expect(stored.rows).toHaveLength(1);

    const key = await a.request('POST', '/v2/api-key/create/', { body: { name: `fleet-rate-${Date.now()}`, scopes: ['api'] } });
    expect(key.status).toBe(200);
    people.secret(String(key.body.data.key));
    const instances = [a, b, c].map((h) => new HttpClient(h.baseUrl, String(key.body.data.key)));
    // 60 requests at once, spread over the 3 instances: one window, one shared budget.
    const statuses = await Promise.all(Array.from({ length: RATE_LIMIT * 2 }, (_, n) => instances[n % 3].request('GET', '/v2/order/').then((r) => r.status)));
    instances.forEach((h) => h.close());
    const passed = statuses.filter((s) => s === 200).length;
    figures.shared = { replayed: again.headers['idempotent-replayed'], rateLimit: RATE_LIMIT, sent: statuses.length, passed };
    rows.push([
      'shared state (direct to instances)',
      String(statuses.length + 2),
      `${statuses.filter((s) => s === 429).length} x 429 (expected)`,
      '-',
      'replayed on another instance: 1 lead',
      '-',
      `rate limit ${RATE_LIMIT}: ${passed} passed over 3 instances`,
    ]);
    expect(passed).toBeLessThanOrEqual(RATE_LIMIT);
    expect(passed).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
  });
});
