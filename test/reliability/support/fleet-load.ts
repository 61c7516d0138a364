import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { DemoOrder, leadBody, People } from './fixtures';
import { ConnectionError, HttpClient, HttpResult, RequestOptions } from './http';
import type { LoggedRequest } from './haproxy';
import { eachLimited, percentile, round } from './load';
import { sleep } from './postgres';

/** One attempt of a request as the load balancer's client saw it. */
export interface Attempt {
  /** The request it belongs to: a create and its tries share one, a read has its own. */
  request: number;
  method: string;
  path: string;
  startedAt: number;
  endedAt: number;
  /** HTTP status, or the connection error's code. */
  outcome: string;
  ok: boolean;
  /** The lead this request created or read. */
  marker: string;
  /** What sent it: the create's kind and key, its try, or a read. */
  label: string;
  /** The instance that answered (X-Served-By), if an answer came. */
  servedBy?: string;
  /** Sent a second time by the HTTP client (HttpResult.resent). */
  resent?: boolean;
}

/** One lead a client asked for: acknowledged when an answer 2xx came back (after retries, for keyed clients). */
export interface LeadRequest {
  marker: string;
  kind: 'sync' | 'async';
  acknowledged: boolean;
  leadId?: number;
  jobId?: string;
}

/** Clients against one entrance of the balancer: what they sent and what they got. */
export class LoadRun {
  readonly attempts: Attempt[] = [];
  readonly leads: LeadRequest[] = [];
  private stopped = false;
  private requests = 0;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly http: HttpClient,
    private readonly order: DemoOrder,
    private readonly people: People,
    private readonly thinkMs: number,
  ) {}

  private async attempt(request: number, marker: string, label: string, method: string, path: string, o: RequestOptions = {}): Promise<HttpResult | null> {
    const startedAt = Date.now();
    const at = { request, method, path, startedAt, marker, label };
    const headers = { ...o.headers, 'X-Lead-Marker': marker };
    try {
      const r = await this.http.request(method, path, { timeoutMs: 30_000, ...o, headers });
      const ok = r.status >= 200 && r.status < 300;
      const servedBy = r.headers['x-served-by'] as string | undefined;
      this.attempts.push({ ...at, endedAt: Date.now(), outcome: String(r.status), ok, servedBy, resent: r.resent });
      return r;
    } catch (err) {
      if (!(err instanceof ConnectionError)) throw err;
      this.attempts.push({ ...at, endedAt: Date.now(), outcome: err.code, ok: false, resent: err.resent });
      return null;
    }
  }

  /**
   * Half the clients send an Idempotency-Key and resend on a lost connection, a 502 (the balancer's answer for an instance
   * that died mid-request) or a 503, as integrators do; the others send once.
   */
  private async create(kind: 'sync' | 'async', keyed: boolean): Promise<void> {
    const rec: LeadRequest = { marker: randomUUID(), kind, acknowledged: false };
    this.leads.push(rec);
    const path = kind === 'sync' ? '/v2/lead/create/' : '/v2/lead/create-async/';
    const o: RequestOptions = { body: leadBody(this.order, this.people, rec.marker), headers: keyed ? { 'Idempotency-Key': randomUUID() } : {} };
    const request = this.requests++;
    for (let tries = 1; ; tries++) {
      const r = await this.attempt(request, rec.marker, `${kind} ${keyed ? 'keyed' : 'unkeyed'} try ${tries}`, 'POST', path, o);
      if (r && r.status >= 200 && r.status < 300) {
        rec.acknowledged = true;
        if (kind === 'sync') rec.leadId = Number(r.body?.data?.id);
        else rec.jobId = String(r.headers['x-job-id'] ?? '');
        return;
      }
      const inProgress = r?.status === 409 && /in progress/i.test(String(r.body?.message ?? ''));
      if (!keyed || tries >= 20 || !(r === null || r.status === 502 || r.status === 503 || inProgress)) return;
      await sleep(Math.min(200 * tries, 1000));
    }
  }

  private async client(i: number): Promise<void> {
    const keyed = i % 2 === 0;
    const kind = keyed && i % 5 === 0 ? 'async' : 'sync';
    while (!this.stopped) {
      await this.create(kind, keyed);
      const last = this.leads[this.leads.length - 1];
      if (last.leadId) await this.attempt(this.requests++, last.marker, 'read', 'GET', `/v2/lead/detail/${last.leadId}/`);
      if (last.jobId) await this.attempt(this.requests++, last.marker, 'read', 'GET', `/v2/lead/create-async/${last.jobId}/`);
      await sleep(this.thinkMs * (0.5 + Math.random()));
    }
  }

  start(clients: number): void {
    this.running = Promise.all(Array.from({ length: clients }, (_, i) => this.client(i))).then(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** Answers that were not 2xx, by status or connection error; a 409 is an idempotent retry told its first try still runs. */
  failures(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const a of this.attempts.filter((x) => !x.ok)) {
      const kind = a.outcome === '409' ? '409 in progress' : a.outcome;
      out[kind] = (out[kind] ?? 0) + 1;
    }
    return out;
  }

  /** The requests that did not end 2xx (after their tries): the last attempt of each. */
  failedRequests(): Attempt[] {
    const last = new Map<number, Attempt>();
    for (const a of this.attempts) if ((last.get(a.request)?.startedAt ?? -1) <= a.startedAt) last.set(a.request, a);
    return [...last.values()].filter((a) => !a.ok);
  }

  /** Attempts under way at some moment between `from` and `to`. */
  inFlight(from: number, to: number): Attempt[] {
    return this.attempts.filter((a) => a.startedAt <= to && a.endedAt >= from);
  }

  latency(): { p50: number; p99: number } {
    const ms = this.attempts.map((a) => a.endedAt - a.startedAt);
    return { p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)) };
  }
}

/**
 * The failed requests not cut on `victim` by its death. A cut one started before the instance was gone, ended after the
 * signal, and failed as HAProxy fails it: a 502 logged as a server abort on the victim, or (a kept-alive client connection)
 * a reset HAProxy did not log. Attempts and log lines are matched by marker, method, path and time.
 */
export function notCutOn(victim: string, killedAt: number, diedAt: number, failed: Attempt[], log: LoggedRequest[]): string[] {
  return failed.flatMap((a) => {
    const logged = log.filter((l) => l.marker === a.marker && l.method === a.method && l.path === a.path && l.at >= a.startedAt - 5 && l.at <= a.endedAt + 5);
    const abortedOnVictim = logged.length > 0 && logged.every((l) => l.server === victim && l.status === 502 && l.termination.startsWith('S'));
    const cut = logged.length === 0 ? a.outcome === 'ECONNRESET' : a.outcome === '502' && abortedOnVictim;
    if (cut && a.startedAt <= diedAt && a.endedAt >= killedAt) return [];
    const haproxy = logged.map((l) => `${l.server} ${l.status} ${l.termination}`).join(', ') || 'not logged';
    return [`${a.label} ${a.method} ${a.path}: ${a.outcome}, ${a.startedAt - killedAt}..${a.endedAt - killedAt} ms from the kill; HAProxy: ${haproxy}`];
  });
}

/** lead.created deliveries by lead marker, and deliveries of one webhook-id that overlapped in time (sent twice at once). */
export class WebhookReceiver {
  readonly leads = new Map<string, Set<number>>();
  requests = 0;
  overlapping = 0;
  private readonly inFlight = new Set<string>();
  private server!: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const id = String(req.headers['webhook-id'] ?? '');
      if (this.inFlight.has(id)) this.overlapping += 1;
      this.inFlight.add(id);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests += 1;
        const e = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: { lead?: { id: number; externalIdCrmA: string } } };
        if (e.type === 'lead.created' && e.data.lead) {
          const ids = this.leads.get(e.data.lead.externalIdCrmA) ?? new Set<number>();
          this.leads.set(e.data.lead.externalIdCrmA, ids.add(e.data.lead.id));
        }
        // A short answer time, so that a second sender of the same delivery would overlap and be seen.
        setTimeout(() => {
          this.inFlight.delete(id);
          res.writeHead(204).end();
        }, 20);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

interface StoredLead {
  marker: string;
  id: number;
  jobId: string | null;
  createdAt: Date;
}

export interface LedgerVerdict {
  acknowledged: number;
  lost: string[];
  duplicated: string[];
  /** The leads of a marker stored more than once (a job id tells a keyed create). */
  duplicatedRows: StoredLead[];
  jobs: { accepted: number; done: number; notDone: string[] };
  deliveries: { expected: number; delivered: number; missing: string[] };
}

/** Polls accepted jobs through the balancer until each is done or failed, or `withinMs` passes. */
async function jobStates(http: HttpClient, jobIds: string[], withinMs: number): Promise<Map<string, { status: string; leadId: number | null }>> {
  const states = new Map<string, { status: string; leadId: number | null }>();
  const open = () => jobIds.filter((id) => !['done', 'failed'].includes(states.get(id)?.status ?? ''));
  const deadline = Date.now() + withinMs;
  while (open().length > 0 && Date.now() < deadline) {
    await eachLimited(open(), 8, async (id) => {
      const r = await http.request('GET', `/v2/lead/create-async/${id}/`).catch(() => null);
      if (r?.status === 200) states.set(id, { status: String(r.body.data.status), leadId: (r.body.data.leadId as number | null) ?? null });
    });
    if (open().length > 0) await sleep(500);
  }
  return states;
}

/** Every acknowledged lead exists exactly once, every accepted job ends done, every created lead reaches the webhook. */
export async function verifyLedger(db: Client, http: HttpClient, leads: LeadRequest[], hook: WebhookReceiver, withinMs: number): Promise<LedgerVerdict> {
  const acked = leads.filter((l) => l.acknowledged);
  const jobIds = acked.filter((l) => l.jobId).map((l) => l.jobId!);
  const states = await jobStates(http, jobIds, withinMs);
  const rows = await db.query<StoredLead>(
    `SELECT external_id_crm_a AS marker, id, job_id AS "jobId", created_at AS "createdAt" FROM lead WHERE external_id_crm_a = ANY($1) ORDER BY id`,
    [leads.map((l) => l.marker)],
  );
  const byMarker = new Map<string, number[]>();
  for (const r of rows.rows) byMarker.set(r.marker, [...(byMarker.get(r.marker) ?? []), r.id]);
  const lost: string[] = [];
  const expected = new Map<string, number>();
  for (const l of acked) {
    const id = l.kind === 'sync' ? l.leadId : states.get(l.jobId!)?.leadId;
    const stored = byMarker.get(l.marker) ?? [];
    if (l.kind === 'sync' && !stored.includes(l.leadId!)) lost.push(`lead ${l.leadId} (${l.marker})`);
    if (l.kind === 'async' && states.get(l.jobId!)?.status === 'done' && (id == null || !stored.includes(id))) lost.push(`job ${l.jobId} (${l.marker})`);
    if (id) expected.set(l.marker, id);
  }
  const missing = () => [...expected].filter(([m, id]) => !hook.leads.get(m)?.has(id)).map(([m, id]) => `lead ${id} (${m})`);
  const deadline = Date.now() + withinMs;
  while (missing().length > 0 && Date.now() < deadline) await sleep(500);
  return {
    acknowledged: acked.length,
    lost,
    duplicated: [...byMarker].filter(([, ids]) => ids.length > 1).map(([m, ids]) => `${m}: ${ids.length} leads`),
    duplicatedRows: rows.rows.filter((r) => (byMarker.get(r.marker)?.length ?? 0) > 1),
    jobs: {
      accepted: jobIds.length,
      done: jobIds.filter((id) => states.get(id)?.status === 'done').length,
      notDone: jobIds.filter((id) => states.get(id)?.status !== 'done').map((id) => `${id}: ${states.get(id)?.status ?? 'unknown'}`),
    },
    deliveries: { expected: expected.size, delivered: expected.size - missing().length, missing: missing() },
  };
}
