import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lost-job sweep (LeadAsyncJobsRepository.failOrphaned) runs every minute on each worker
 * instance and reads only the jobs still `queued`: a partial index keeps that a read of a few
 * rows however many finished jobs the table keeps.
 */
export class LeadAsyncJobQueuedIndex1763862000000 implements MigrationInterface {
  name = 'LeadAsyncJobQueuedIndex1763862000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX lead_async_job_queued_idx ON lead_async_job (created_at) WHERE state = 'queued'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX lead_async_job_queued_idx`);
  }
}
