import type { Job, JobResult } from 'pg-boss';
import { databaseUnavailableReason, sqlState } from '../../../common/pg-errors';
import type { JobOutcome, QueueDefinition } from './queue-definition';

/**
 * An error as its class and code (`QueryFailedError 23505`, `Error ECONNREFUSED`), for log lines
 * about jobs: never its message, which can quote the values of a statement (a phone, a name).
 */
export function errorKind(err: unknown): string {
  if (!err || typeof err !== 'object') return typeof err;
  const ctor = err.constructor?.name;
  const own = (err as { name?: unknown }).name;
  const name = ctor && ctor !== 'Object' ? ctor : typeof own === 'string' ? own : 'error';
  const code = sqlState(err) ?? databaseUnavailableReason(err);
  return code ? `${name} ${code}` : name;
}

/**
 * A fetch's outcomes, one per job in the jobs' order: from the batch handler (a throw fails every
 * job), or each job's own `handle`, the jobs running concurrently, bounded by the pool their
 * handler uses (see persistence/worker-database.ts).
 */
export async function fetchOutcomes<T>(def: Pick<QueueDefinition<T>, 'handle' | 'handleBatch'>, jobs: Job<T>[]): Promise<JobOutcome[]> {
  if (def.handleBatch) {
    try {
      return await def.handleBatch(jobs);
    } catch (error) {
      return jobs.map(() => ({ ok: false, error }));
    }
  }
  return Promise.all(
    jobs.map(async (job): Promise<JobOutcome> => {
      try {
        return { ok: true, output: (await def.handle(job)) ?? undefined };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
}

/**
 * pg-boss's per-job results for a fetch's outcomes (a job without one fails), and the failed jobs
 * by error. A failure's stored output is the error's class and code: its message can quote
 * statement values.
 */
export function settledResults<T>(jobs: Job<T>[], outcomes: JobOutcome[]): { results: JobResult[]; failures: Map<unknown, Job<T>[]> } {
  const failures = new Map<unknown, Job<T>[]>();
  const results = jobs.map((job, i): JobResult => {
    const outcome: JobOutcome = outcomes[i] ?? { ok: false, error: new Error('no outcome returned by the batch handler') };
    if (outcome.ok) return { id: job.id, status: 'completed', output: outcome.output };
    const failed = failures.get(outcome.error);
    if (failed) failed.push(job);
    else failures.set(outcome.error, [job]);
    return { id: job.id, status: 'failed', output: { error: errorKind(outcome.error) } };
  });
  return { results, failures };
}
