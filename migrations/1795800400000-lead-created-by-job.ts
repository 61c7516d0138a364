import { MigrationInterface, QueryRunner } from 'typeorm';
import { LEAD_EVENT_UNPRESENTED as EARLIER_UNPRESENTED } from './1795780100000-redial-by-outcome';

/** The lead columns the lead.updated event leaves out, as of this version: `created_by_job` is bookkeeping of the create. */
export const LEAD_EVENT_UNPRESENTED = [...EARLIER_UNPRESENTED, 'created_by_job'];

/** The lead.created event: `jobId` for a lead an async job made. `jobIdOf` is the expression giving it. */
const leadInsertEvent = (jobIdOf: string) => `
      CREATE OR REPLACE FUNCTION event_on_lead_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO event (type, order_id, payload)
        VALUES ('lead.created', NEW.order_id, jsonb_build_object(
                 'row', to_jsonb(NEW) || jsonb_build_object('social_a_id', NEW.social_a_id::text, 'messenger_id', NEW.messenger_id::text),
                 'jobId', ${jobIdOf}));
        RETURN NULL;
      END $$`;

/**
 * A lead made by an async job says so itself (`created_by_job`, written by the job's insert), so the lead.created trigger no
 * longer looks the job up in `lead_async_job`: on a Citus cluster the trigger runs on a worker, and the job queue is a
 * coordinator table (docs/scaling.md, item 12). A sync create's Idempotency-Key token, also kept in `job_id`, stays without
 * `jobId`, as before.
 */
export class LeadCreatedByJob1795800400000 implements MigrationInterface {
  name = 'LeadCreatedByJob1795800400000';

  async up(q: QueryRunner): Promise<void> {
    // On a Citus cluster a function may not be made after parallel DDL of a distributed table in one transaction; on plain
    // PostgreSQL this is an unused setting of the transaction.
    await q.query(`SET LOCAL citus.multi_shard_modify_mode = 'sequential'`);
    await q.query(`ALTER TABLE lead ADD COLUMN created_by_job boolean NOT NULL DEFAULT false`);
    // The jobs' ids first, then one UPDATE of the leads that have them: a distributed `lead` is not joined to a coordinator table.
    const [{ ids }] = (await q.query(`SELECT coalesce(array_agg(id), '{}') AS ids FROM lead_async_job`)) as { ids: string[] }[];
    if (ids.length) await q.query(`UPDATE lead SET created_by_job = true WHERE job_id = ANY($1::uuid[])`, [ids]);
    await q.query(leadInsertEvent(`CASE WHEN NEW.created_by_job THEN NEW.job_id END`));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL citus.multi_shard_modify_mode = 'sequential'`);
    await q.query(leadInsertEvent(`CASE WHEN NEW.job_id IS NOT NULL AND EXISTS (SELECT 1 FROM lead_async_job j WHERE j.id = NEW.job_id) THEN NEW.job_id END`));
    await q.query(`ALTER TABLE lead DROP COLUMN created_by_job`);
  }
}
