import { MigrationInterface, QueryRunner } from 'typeorm';

/** Lead ids per statement: each batch commits on its own, so row locks are held briefly. */
const BATCH = 10_000;

/**
 * Leads stored by the old timestamptz(0) column with created_at after their own updated_at were
 * rounded up (the true creation instant is never after updated_at, which is written with it):
 * they move back one second, which is what truncation gives. The counters' UPDATE trigger moves
 * a lead to the previous hour when that second crosses one, so the per-hour counters stay exact.
 * Other rows cannot be told apart (a call has no updatedAt; a lead updated since may have been
 * rounded either way) and keep their value: at most one second late, never after what is shown
 * beside it.
 *
 * Not one transaction: on a large table a single UPDATE would hold the locks of half the leads
 * for minutes (250,000 of 500,000 rows took 40 s on the 2-core development machine). Batches by
 * id range commit one by one; a run interrupted midway is finished by the next (the condition
 * selects only rows still to fix).
 */
export class CreatedAtRoundedLeads1763863300000 implements MigrationInterface {
  name = 'CreatedAtRoundedLeads1763863300000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    const [{ lo, hi }] = (await q.query(`SELECT min(id) AS lo, max(id) AS hi FROM lead`)) as { lo: number | null; hi: number | null }[];
    if (lo === null || hi === null) return;
    for (let from = lo; from <= hi; from += BATCH) {
      await q.query(
        `UPDATE lead SET created_at = created_at - interval '1 second'
         WHERE id >= $1 AND id < $2 AND created_at > updated_at AND created_at <= updated_at + interval '1 second'`,
        [from, from + BATCH],
      );
    }
  }

  async down(): Promise<void> {
    // Nothing to undo: the rounded values are not kept.
  }
}
