import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `createdAt` of leads and calls is shown to the second (ISO 8601 without fractions) and filtered
 * by `createdAt[0]`/`createdAt[1]`, both inclusive. Stored with microseconds, a row shown as
 * 05:14:06 was missed by `createdAt[1]=05:14:06Z`. Stored to the second, what is filtered is
 * exactly what is shown. Existing rows are truncated (never rounded), so none moves to another
 * hour and the per-hour counters stay exact; new values are rounded by the column type, before
 * the counting triggers see them.
 */
export class WholeSecondCreatedAt1763840000000 implements MigrationInterface {
  name = 'WholeSecondCreatedAt1763840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE lead ALTER COLUMN created_at TYPE timestamptz(0) USING date_trunc('second', created_at)`);
    await q.query(`ALTER TABLE call ALTER COLUMN created_at TYPE timestamptz(0) USING date_trunc('second', created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE call ALTER COLUMN created_at TYPE timestamptz`);
    await q.query(`ALTER TABLE lead ALTER COLUMN created_at TYPE timestamptz`);
  }
}
