import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/**
 * The queue module's tables: `queue_consumer` (heartbeats) and pg-boss's own schema `pgboss`, read
 * here only, so other modules ask JobQueueService and never name pg-boss's tables.
 */
@Injectable()
export class QueueRepository {
  constructor(private readonly ds: DataSource) {}

  /** This instance's consumers of each queue, seen now. */
  async beat(instanceId: string, queues: string[], consumers: number): Promise<void> {
    await this.ds.query(
      `INSERT INTO queue_consumer (instance_id, queue_name, consumers, seen_at)
       SELECT $1, unnest($2::text[]), $3, now()
       ON CONFLICT (instance_id, queue_name) DO UPDATE SET consumers = EXCLUDED.consumers, seen_at = now()`,
      [instanceId, queues, consumers],
    );
  }

  async forgetInstance(instanceId: string): Promise<void> {
    await this.ds.query(`DELETE FROM queue_consumer WHERE instance_id = $1`, [instanceId]);
  }

  /**
   * Per queue, in one round trip: the consumers whose heartbeat is younger than `staleSeconds`,
   * and the jobs waiting to run (created or retry), counted exactly through pg-boss's own partial
   * index on waiting jobs (its cached queue statistics lag by up to a minute).
   */
  consumersAndBacklog(queues: string[], staleSeconds: number): Promise<{ name: string; consumers: number; backlog: number }[]> {
    return this.ds.query(
      `SELECT q.name,
              (SELECT coalesce(sum(consumers), 0)::int FROM queue_consumer c
                WHERE c.queue_name = q.name AND c.seen_at > now() - make_interval(secs => $2)) AS consumers,
              (SELECT count(*)::int FROM pgboss.job j WHERE j.name = q.name AND j.state < 'active') AS backlog
       FROM unnest($1::text[]) AS q(name)`,
      [queues, staleSeconds],
    );
  }

  /** Those of `ids` whose job in `queue` is waiting or running, on `m` when given (one query). */
  async liveJobIds(queue: string, ids: readonly string[], m: EntityManager = this.ds.manager): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: { id: string }[] = await m.query(
      `SELECT id::text AS id FROM pgboss.job WHERE name = $1 AND id = ANY($2::uuid[]) AND state IN ('created', 'retry', 'active')`,
      [queue, ids],
    );
    return new Set(rows.map((r) => r.id));
  }
}
