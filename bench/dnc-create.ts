import type autocannon from 'autocannon';
import os from 'node:os';
import { Pool } from 'pg';
import { AppReady } from './support/app-builds';
import { ChildServer, startChild } from './support/child';
import { assignBenchClient } from './support/client-cases';
import { cloneBenchDatabase, createBenchDatabase, describeMachine, startBenchCluster, BenchDatabase } from './support/cluster';
import { activeListedPhones, checkpoint, loadDncEntries, validDncPhones } from './support/dnc-data';
import { CONNECTIONS, failures, interleaved, ROUNDS, SECONDS, VariantResult } from './support/interleaved';
import { LoadTarget, mdRow } from './support/measured-load';
import { settle, createPopulation, grow } from './support/realistic-data';
import { BenchSection } from './support/report';

/**
 * The sync lead create with empty do-not-call lists against the same create with 1,000,000 global and 100,000 client numbers: one
 * population cloned into two databases, an app on each, rounds interleaved, the same bodies (a few percent of them listed) to both.
 * Afterwards, how many created leads an active entry covers and how many of those were left planned (none, when creates check).
 */

const LEADS = Number(process.env.BENCH_DNC_LEADS ?? 100_000);
const GLOBAL = Number(process.env.BENCH_DNC_GLOBAL ?? 1_000_000);
const CLIENT = Number(process.env.BENCH_DNC_CLIENT ?? 100_000);
/** Percent of the created leads whose phone is on an active entry. */
const LISTED_PERCENT = Number(process.env.BENCH_DNC_LISTED_PERCENT ?? 3);
/** Where the sequence of numbers starts for the phones on no list (the lists take 0 .. GLOBAL + CLIENT - 1). */
const UNLISTED_FROM = 3_000_000;
const EMPTY = 'empty lists';
const LOADED = 'lists loaded';

/** The bench order's created leads: those an active entry covers, planned among them and among the others. */
interface Covered {
  created: number;
  covered: number;
  planned: number;
  plannedUncovered: number;
}

interface Side {
  label: typeof EMPTY | typeof LOADED;
  db: BenchDatabase;
  app?: ChildServer<AppReady>;
}

export async function dncCreateBench(): Promise<BenchSection> {
  const cluster = await startBenchCluster();
  const loaded: Side = { label: LOADED, db: await createBenchDatabase(cluster) };
  const machine = await describeMachine(loaded.db.url);
  let empty: Side | undefined;
  const results: VariantResult[] = [];
  const covered: Record<string, Covered> = {};
  let order = { id: 0, code: '' };
  let listed: string[] = [];
  try {
    const setup = new Pool({ connectionString: loaded.db.url, max: 2 });
    const pop = await createPopulation(setup, [LEADS]);
    const client = await assignBenchClient(setup, pop);
    await grow(setup, pop, 0, LEADS, false);
    await settle(loaded.db.url, setup);
    order = (await setup.query(`SELECT id, code FROM call_order WHERE id = $1`, [client.mid])).rows[0] as typeof order;
    // Open round the clock: every created lead gets a planned call unless an entry blocks it.
    await setup.query(`UPDATE call_order SET call_schedule = $2::jsonb WHERE id = $1`, [
      order.id,
      JSON.stringify(Array.from({ length: 7 }, () => ['00:00', '23:59'])),
    ]);
    await setup.end();
    empty = { label: EMPTY, db: await cloneBenchDatabase(cluster, loaded.db) };

    const pool = new Pool({ connectionString: loaded.db.url, max: 2 });
    const started = Date.now();
    await loadDncEntries(pool, { scope: 'global' }, 0, GLOBAL);
    await loadDncEntries(pool, { scope: 'client', clientId: client.id }, GLOBAL, GLOBAL + CLIENT);
    await pool.query(`VACUUM ANALYZE dnc_entry`);
    await checkpoint(pool);
    console.log(`dnc-create: ${GLOBAL + CLIENT} entries loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    listed = await activeListedPhones(pool, client.id, 5_000);
    await pool.end();

    const unlisted = validDncPhones(UNLISTED_FROM, 200_000);
    for (const side of [empty, loaded]) {
      side.app = await startChild<AppReady>('app-server.js', {
        BENCH_APP_DATABASE_URL: side.db.url,
        BENCH_APP_ENV: JSON.stringify({ WORKERS: '0', API_KEY_CACHE_TTL_MS: '5000' }),
      });
    }
    const variants = [empty, loaded].map((side) => ({
      label: side.label,
      options: create(side.app!.ready, order, listed, unlisted),
      target: { pid: side.app!.pid, cluster, databaseUrl: side.db.url } satisfies LoadTarget,
    }));
    const measured = await interleaved('POST /v2/lead/create/', variants);
    for (const r of measured) if (failures(r).non2xx) console.warn(`dnc-create: ${r.label}: ${failures(r).non2xx} non-2xx answers`);
    results.push(...measured);
    for (const side of [empty, loaded]) covered[side.label] = await coveredLeads(side.db.url, order.id, client.id);
  } finally {
    for (const side of [empty, loaded]) await side?.app?.stop();
    await empty?.db.drop();
    await loaded.db.drop();
    await cluster.stop();
  }
  machine.loadEnd = os.loadavg()[0];
  return {
    bench: 'dnc-create',
    machine,
    markdown: markdown(results, covered),
    data: { leads: LEADS, global: GLOBAL, client: CLIENT, listedPercent: LISTED_PERCENT, rounds: ROUNDS, seconds: SECONDS, results, covered },
  };
}

/**
 * Creates into the client's order: each side the same stream of bodies, LISTED_PERCENT of the phones on an active entry, the others on
 * no list, every tenth repeating the phone five leads before (a duplicate to link).
 */
function create(app: AppReady, order: { id: number; code: string }, listed: string[], unlisted: string[]): autocannon.Options {
  let seq = 0;
  const phone = () => {
    const n = seq++;
    const k = n % 10 === 9 ? n - 5 : n;
    if (k % 100 < LISTED_PERCENT) return listed[k % listed.length];
    return unlisted[k % unlisted.length];
  };
  return {
    url: `${app.url}/v2/lead/create/`,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          headers: { 'content-type': 'application/json', 'x-api-key': app.apiKey! },
          body: JSON.stringify({ leadType: 'straight', phone: phone(), orderId: order.id, orderCode: order.code, name: 'Bench' }),
        }),
      },
    ],
  };
}

/** The bench order's created leads, those an active entry covers, and how many of those are planned. */
async function coveredLeads(url: string, orderId: number, clientId: number): Promise<Covered> {
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    const { rows } = await pool.query(
      `SELECT count(*)::int AS created,
              count(*) FILTER (WHERE c.hit)::int AS covered,
              count(*) FILTER (WHERE c.hit AND l.planning_call_at IS NOT NULL)::int AS planned,
              count(*) FILTER (WHERE NOT c.hit AND l.planning_call_at IS NOT NULL)::int AS "plannedUncovered"
       FROM lead l
       CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM dnc_entry d WHERE d.phone = l.phone AND (d.expires_at IS NULL OR d.expires_at > now())
                             AND (d.scope = 'global' OR (d.scope = 'client' AND d.client_id = $2) OR (d.scope = 'order' AND d.order_id = l.order_id))) AS hit) c
       WHERE l.order_id = $1 AND l.name = 'Bench'`,
      [orderId, clientId],
    );
    return rows[0] as Covered;
  } finally {
    await pool.end();
  }
}

/** Round by round, `side`'s req/s over `base`'s: the two loads of one round run back to back. */
function pairedRatios(side: VariantResult, base: VariantResult): number[] {
  return side.rounds.map((m, i) => m.requestsPerSecond / base.rounds[i].requestsPerSecond);
}

function markdown(results: VariantResult[], covered: Record<string, Covered>): string {
  const base = results.find((r) => r.label === EMPTY);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const lines = [
    `${LEADS} leads of 34 interleaved orders; creates into an order of client C (its lists: the global one, C's, the order's). ` +
      `Lists loaded: ${GLOBAL} numbers on the global list, ${CLIENT} on C's (80% without expiry, 15% expiring later, 5% expired). ` +
      `${LISTED_PERCENT}% of the created phones are on an active entry, the rest on none; 16 countries. ${CONNECTIONS} connections, ` +
      `${ROUNDS} rounds of ${SECONDS} s per side, interleaved. req/s: median and best round; p50 and p99: the median round's. ` +
      'Paired: the median over rounds of the ratio of the two sides measured back to back in that round (drift of the machine cancels).',
    '',
    mdRow([
      'Side',
      'req/s (median)',
      'req/s (best)',
      'p50 ms',
      'p99 ms',
      'server CPU ms',
      'PostgreSQL CPU ms',
      'errors / non-2xx',
      'vs empty lists (median, best, paired)',
    ]),
    mdRow(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const r of results) {
    const rps = r.rounds.map((x) => x.requestsPerSecond);
    const mid = [...r.rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(r.rounds.length / 2)];
    const { errors, non2xx } = failures(r);
    const ratio =
      base && r !== base
        ? [
            median(rps) / median(base.rounds.map((x) => x.requestsPerSecond)),
            r.mostRequestsPerSecond / base.mostRequestsPerSecond,
            median(pairedRatios(r, base)),
          ]
            .map((x) => `${x.toFixed(2)}x`)
            .join(', ')
        : '';
    lines.push(
      mdRow([
        r.label,
        median(rps),
        r.mostRequestsPerSecond,
        mid.p50Ms,
        mid.p99Ms,
        r.best.serverCpuMs ?? '',
        r.best.postgresCpuMs ?? '',
        `${errors} / ${non2xx}`,
        ratio,
      ]),
    );
  }
  lines.push('', 'Rounds, req/s in run order: ' + results.map((r) => `${r.label} ${r.rounds.map((x) => x.requestsPerSecond).join(', ')}`).join('; ') + '.');
  const loadedSide = results.find((r) => r.label === LOADED);
  if (base && loadedSide)
    lines.push(
      '',
      `Paired ratios by round: ${pairedRatios(loadedSide, base)
        .map((x) => `${x.toFixed(2)}x`)
        .join(', ')}.`,
    );
  const l = covered[LOADED];
  if (l)
    lines.push(
      '',
      `Created leads (lists loaded): ${l.created}, of which ${l.covered} have a phone an active entry covers; ${l.planned} of those were ` +
        `left planned, against ${l.plannedUncovered} of the ${l.created - l.covered} others.`,
    );
  return lines.join('\n');
}
