import { MigrationInterface, QueryRunner } from 'typeorm';
import { LEAD_EVENT_UNPRESENTED as EARLIER_UNPRESENTED } from './1795780000000-lead-event-compared-columns';

/** The lead columns the lead.updated event leaves out, as of this version: `dial_stop` is bookkeeping (callable names it). */
export const LEAD_EVENT_UNPRESENTED = [...EARLIER_UNPRESENTED, 'dial_stop'];

/**
 * Redial by call outcome: a call status's own rule (`redial_*`: a delay that replaces the attempt group's interval, a cap on the
 * lead's calls ending in it, or final), an order's overrides per status (`redial_rules`), and on the lead the rule that stopped it
 * (`dial_stop`). The catalogue gets the usual rules: busy after 15 minutes, no answer after 2 hours, voicemail the next day, and a
 * final "wrong number".
 */
export class RedialByOutcome1795780100000 implements MigrationInterface {
  name = 'RedialByOutcome1795780100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "call_status" ADD "redial_after_minutes" integer`);
    await q.query(`ALTER TABLE "call_status" ADD "redial_max_attempts" integer`);
    await q.query(`ALTER TABLE "call_status" ADD "redial_final" boolean NOT NULL DEFAULT false`);
    await q.query(
      `ALTER TABLE "call_status" ADD CONSTRAINT "call_status_redial_check" CHECK (redial_after_minutes BETWEEN 0 AND 525600 AND redial_max_attempts BETWEEN 1 AND 1000)`,
    );
    await q.query(`UPDATE call_status SET redial_after_minutes = 15 WHERE code = 'busy'`);
    await q.query(`UPDATE call_status SET redial_after_minutes = 120 WHERE code = 'no-answer'`);
    await q.query(`UPDATE call_status SET redial_after_minutes = 1440 WHERE code = 'voicemail'`);
    await q.query(
      `INSERT INTO call_status (code, title, category, redial_final) VALUES ('wrong-number', 'Wrong number', 'failed', true) ON CONFLICT (code) DO NOTHING`,
    );
    await q.query(`ALTER TABLE "call_order" ADD "redial_rules" jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`ALTER TABLE "lead" ADD "dial_stop" character varying(32)`);
    await q.query(`ALTER TABLE "lead" ADD CONSTRAINT "lead_dial_stop_check" CHECK (dial_stop IN ('final_outcome', 'outcome_attempts_exhausted'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "lead" DROP COLUMN "dial_stop"`);
    await q.query(`ALTER TABLE "call_order" DROP COLUMN "redial_rules"`);
    // The status stays when calls name it; its rule goes with the columns.
    await q.query(`DELETE FROM call_status s WHERE code = 'wrong-number' AND NOT EXISTS (SELECT 1 FROM call c WHERE c.status_id = s.id)`);
    await q.query(`ALTER TABLE "call_status" DROP CONSTRAINT "call_status_redial_check"`);
    await q.query(`ALTER TABLE "call_status" DROP COLUMN "redial_final"`);
    await q.query(`ALTER TABLE "call_status" DROP COLUMN "redial_max_attempts"`);
    await q.query(`ALTER TABLE "call_status" DROP COLUMN "redial_after_minutes"`);
  }
}
