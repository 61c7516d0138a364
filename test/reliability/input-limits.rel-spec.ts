import { appendFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import request from 'supertest';
import { createLeadOrder, leadBody } from '../factories/leads';
import { insertOrderReferences, minimalOrderBody } from '../factories/orders';
import globalSetup from '../support/global-setup';
import globalTeardown from '../support/global-teardown';
import {
  FIELD_CAPS,
  HOLIDAY_YEAR,
  HOSTILE_SHAPES,
  LimitCase,
  LimitsContext,
  LONGEST_COMMENT,
  TOO_LARGE,
  TOO_MANY_PARAMETERS,
  UNKNOWN_AGENTS,
} from '../support/input-limit-cases';
import { createTestApp, TestApp } from '../support/test-app';
import { collectGarbage, cpuMsSince } from './support/cpu-time';
import { writeFigures } from './support/run-dir';

/**
 * Each request of input-limits.e2e-spec.ts (hostile bodies and query strings, largest valid bodies) holds the event
 * loop under 50 ms. The app runs in this process (e2e database set-up) so both measures are taken where it runs; each
 * is the least of PROBE_TRIES tries, since other load only adds. INPUT_LIMITS_REPORT=<file> appends every try's figures.
 */
const BUDGET_MS = 50;
const PROBE_TRIES = 3;

interface Probe {
  status: number;
  cpuMs: number;
  stallMs: number;
  wallMs: number;
}

/**
 * One try: the answer, cpuMs (main-thread CPU after a full collection, an upper bound of any stall it caused), stallMs
 * (longest event-loop delay, wall time so other processes inflate it) and wall time.
 */
async function measure(send: () => request.Test): Promise<Probe> {
  collectGarbage();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const cpuBefore = process.threadCpuUsage();
  const started = performance.now();
  delay.enable();
  const res = await send();
  delay.disable();
  const cpuMs = cpuMsSince(cpuBefore);
  return { status: res.status, cpuMs, stallMs: delay.count > 0 ? delay.max / 1e6 : 0, wallMs: performance.now() - started };
}

const figures: [string, string][] = [];

async function probe(label: string, send: () => request.Test): Promise<Probe> {
  const tries: Probe[] = [];
  for (let i = 0; i < PROBE_TRIES; i++) {
    const p = await measure(send);
    tries.push(p);
    if (process.env.INPUT_LIMITS_REPORT) {
      const fig = (n: number) => n.toFixed(1).padStart(7);
      appendFileSync(
        process.env.INPUT_LIMITS_REPORT,
        `${label.padEnd(58)} ${String(p.status)} stall ${fig(p.stallMs)} ms  cpu ${fig(p.cpuMs)} ms  wall ${fig(p.wallMs)} ms  load ${loadavg()[0].toFixed(1)}\n`,
      );
    }
  }
  const least = (pick: (p: Probe) => number) => Math.min(...tries.map(pick));
  for (const p of tries.slice(1)) expect(p.status).toBe(tries[0].status);
  return { ...tries[0], cpuMs: least((p) => p.cpuMs), stallMs: least((p) => p.stallMs), wallMs: least((p) => p.wallMs) };
}

/** The stallMs budget: 50 ms on an idle machine, scaled by the load per core (at least 1) when others share it. */
const stallBudget = () => BUDGET_MS * Math.max(1, loadavg()[0] / cpus().length);

function expectQuick(label: string, p: Probe): void {
  figures.push([label, `cpu ${p.cpuMs.toFixed(1)} ms, stall ${p.stallMs.toFixed(1)} ms`]);
  expect({ cpuMs: p.cpuMs, under: p.cpuMs < BUDGET_MS }).toEqual({ cpuMs: p.cpuMs, under: true });
  expect({ stallMs: p.stallMs, under: p.stallMs < stallBudget() }).toEqual({ stallMs: p.stallMs, under: true });
}

describe('input limits: no request within the limits holds the event loop', () => {
  let t: TestApp;
  let ctx: LimitsContext;
  beforeAll(async () => {
    await globalSetup();
    t = await createTestApp({ WORKERS: '0' });
    ctx = { order: await createLeadOrder(t), refs: await insertOrderReferences(t.ds) };
  });
  afterAll(async () => {
    await t?.close();
    await globalTeardown();
    await writeFigures('input-limits', { summary: figures });
  });

  /** The request of a case, its body serialised once, before any try is measured. */
  const send = (c: Pick<LimitCase, 'method' | 'path' | 'body'>) => {
    const json = c.body ? JSON.stringify(c.body(ctx)) : undefined;
    return () =>
      c.method === 'GET'
        ? request(t.http).get(c.path).set('X-Api-Key', t.apiKey)
        : request(t.http).post(c.path).set('Content-Type', 'application/json').set('X-Api-Key', t.apiKey).send(json);
  };
  const post = (path: string, body: unknown) => send({ method: 'POST', path, body: () => body });

  it('measures a normal lead and order create first (baseline, and warms the routes up)', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await probe('baseline: lead create', post('/v2/lead/create/', leadBody(ctx.order)))).status).toBe(200);
      expect((await probe('baseline: order create', post('/v2/order/create/', minimalOrderBody(ctx.refs)))).status).toBe(200);
    }
    expectQuick('baseline: lead create (warm)', await probe('baseline: lead create (warm)', post('/v2/lead/create/', leadBody(ctx.order))));
  });

  const cases = [...TOO_LARGE, LONGEST_COMMENT, ...HOSTILE_SHAPES, ...FIELD_CAPS, HOLIDAY_YEAR, UNKNOWN_AGENTS, TOO_MANY_PARAMETERS];
  it.each(cases.map((c) => [`${c.expected.status}: ${c.label}`, c] as const))('%s', async (label, c) => {
    const p = await probe(label, send(c));
    expect(p.status).toBe(c.expected.status);
    expectQuick(label, p);
  });
});
