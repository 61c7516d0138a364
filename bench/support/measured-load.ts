import autocannon from 'autocannon';
import { BenchCluster, withClient } from './cluster';
import { clusterCpuMs, processCpuMs } from './proc-cpu';

/** The target load: 50 connections; seconds per measured load (BENCH_SECONDS, default 10). */
export const CONNECTIONS = 50;
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export interface StatementCost {
  query: string;
  /** Executions per HTTP request. */
  callsPerRequest: number;
  /** Planning + execution time per HTTP request, ms. */
  msPerRequest: number;
  /** Executions run by a client (false: inside a function or trigger). */
  toplevel: boolean;
}

export interface MeasuredLoad {
  name: string;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** CPU time per request of the server process under load (all its threads), ms. */
  serverCpuMs: number | null;
  /** CPU time per request of the whole PostgreSQL cluster (backends and background processes), ms. */
  postgresCpuMs: number | null;
  /** The costliest statements of the load (pg_stat_statements), per request. */
  statements: StatementCost[];
}

export interface LoadTarget {
  /** The server process under load. */
  pid: number;
  cluster: BenchCluster;
  /** The database whose statements are read. */
  databaseUrl: string;
}

/**
 * Drives one endpoint with autocannon at CONNECTIONS for SECONDS and reads, for the same window,
 * the CPU time of the server process and of PostgreSQL and the per-statement costs.
 */
export async function measuredLoad(name: string, opts: autocannon.Options, target: LoadTarget): Promise<MeasuredLoad> {
  const statements = target.cluster.statements;
  if (statements) await withClient(target.databaseUrl, (c) => c.query(`SELECT pg_stat_statements_reset()`));
  const pgBefore = target.cluster.postmasterPid ? clusterCpuMs(target.cluster.postmasterPid) : null;
  const appBefore = processCpuMs(target.pid);
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  const appMs = processCpuMs(target.pid) - appBefore;
  const pgMs = pgBefore !== null ? clusterCpuMs(target.cluster.postmasterPid!) - pgBefore : null;
  const requests = result.requests.total;
  const costs = statements ? await statementCosts(target.databaseUrl, requests) : [];
  return {
    name,
    requests,
    requestsPerSecond: Math.round(requests / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    serverCpuMs: requests ? round(appMs / requests) : null,
    postgresCpuMs: pgMs !== null && requests ? round(pgMs / requests) : null,
    statements: costs,
  };
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

async function statementCosts(url: string, requests: number): Promise<StatementCost[]> {
  if (!requests) return [];
  const rows = (
    await withClient(url, (c) =>
      c.query(
        `SELECT query, calls, total_plan_time + total_exec_time AS ms, toplevel
         FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND query NOT LIKE '%pg_stat_statements%'
        ORDER BY ms DESC LIMIT 12`,
      ),
    )
  ).rows as { query: string; calls: string; ms: number; toplevel: boolean }[];
  return rows.map((r) => ({
    query: r.query.replace(/\s+/g, ' ').slice(0, 160),
    callsPerRequest: round(Number(r.calls) / requests),
    msPerRequest: round(r.ms / requests),
    toplevel: r.toplevel,
  }));
}

/** One row of a Markdown table. */
export const mdRow = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
