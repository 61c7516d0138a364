import type { Job, Queue } from 'pg-boss';

export interface QueueDefinition<T> {
  name: string;
  /** Consumers this queue needs across the fleet for the health check to pass. */
  neededConsumers: number;
  /**
   * Jobs a consumer claims per fetch (default 1). Above 1 a consumer keeps fetching without
   * waiting while batches come back full (bursts drain at handler speed, not one job per poll)
   * and settles each job on its own: a job whose handler throws is retried alone.
   */
  batchSize?: number;
  /** Queue options (retries, backoff, dead letter, ...) applied when the queue is created. */
  options?: Omit<Queue, 'name'>;
  handle(job: Job<T>): Promise<unknown>;
  /**
   * With `batchSize` above 1: a fetch's jobs handled together instead of `handle` per job, one outcome per job in order; a failed job
   * is retried or dead-lettered on its own, a throw fails them all. pg-boss settles the batch in two statements (complete, fail).
   */
  handleBatch?(jobs: Job<T>[]): Promise<JobOutcome[]>;
}

/** A batch handler's verdict on one job: done (with its output, if any), or failed with its error. */
export type JobOutcome = { ok: true; output?: object } | { ok: false; error: unknown };

export interface QueueConsumerReport {
  queue_name: string;
  success: boolean;
  data: { current_consumers_count: number; needle_consumers_count: number; backlog: number };
}

/** A queue is healthy when the fleet runs at least the consumers it needs. */
export function consumerReport(name: string, consumers: number, needed: number, backlog: number): QueueConsumerReport {
  return {
    queue_name: name,
    success: consumers >= needed,
    data: { current_consumers_count: consumers, needle_consumers_count: needed, backlog },
  };
}
