import type autocannon from 'autocannon';
import { LoadTarget, MeasuredLoad, measuredLoad } from './measured-load';

/** Rounds per variant and path (BENCH_ROUNDS), seconds per round (BENCH_COST_SECONDS), connections. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const SECONDS = Number(process.env.BENCH_COST_SECONDS ?? 4);
export const CONNECTIONS = 16;

/** One side of an A/B on a path: a build, a key... with its load and the process it loads. */
export interface Variant {
  label: string;
  options: autocannon.Options;
  target: LoadTarget;
}

export interface VariantResult {
  path: string;
  label: string;
  /** The round with the least server CPU per request. */
  best: MeasuredLoad;
  /** The most requests per second of any round. */
  mostRequestsPerSecond: number;
  rounds: MeasuredLoad[];
}

/** One path under every variant: a warm-up each, then ROUNDS rounds taking the variants in turn, each round starting with the next one. */
export async function interleaved(path: string, variants: Variant[]): Promise<VariantResult[]> {
  const load = (v: Variant, duration: number) => measuredLoad(`${path} (${v.label})`, { ...v.options, duration, connections: CONNECTIONS }, v.target);
  for (const v of variants) await load(v, 2);
  const rounds = new Map<Variant, MeasuredLoad[]>(variants.map((v) => [v, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < variants.length; i++) {
      const v = variants[(round + i) % variants.length];
      rounds.get(v)!.push(await load(v, SECONDS));
    }
  }
  return variants.map((v) => {
    const measured = rounds.get(v)!;
    const best = [...measured].sort((x, y) => (x.serverCpuMs ?? Infinity) - (y.serverCpuMs ?? Infinity))[0];
    return { path, label: v.label, best, mostRequestsPerSecond: Math.max(...measured.map((m) => m.requestsPerSecond)), rounds: measured };
  });
}

/** Errors and non-2xx answers over all rounds. */
export function failures(r: VariantResult): { errors: number; non2xx: number } {
  return { errors: r.rounds.reduce((n, m) => n + m.errors, 0), non2xx: r.rounds.reduce((n, m) => n + m.non2xx, 0) };
}

/** A result's table cells: path, variant, server and PostgreSQL CPU per request, p50, req/s, errors / non-2xx. */
export function resultCells(r: VariantResult): (string | number)[] {
  const { errors, non2xx } = failures(r);
  return [r.path, r.label, r.best.serverCpuMs ?? '', r.best.postgresCpuMs ?? '', r.best.p50Ms, r.mostRequestsPerSecond, `${errors} / ${non2xx}`];
}
