import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `createdAt` of leads and calls is stored to the second, truncated: never rounded. A
 * `timestamptz(0)` column rounds (10:00:00.7 became 10:00:01, half a second in the future and
 * after the lead's own `updatedAt`), and it rounds before any trigger sees the value. So the
 * columns go back to full precision (no table rewrite: only the type modifier widens) and a
 * BEFORE trigger truncates every value written, defaults and explicit ones (a call's startedAt)
 * alike; the statement triggers keeping the per-hour counters see the stored, truncated value.
 * Rows stored before keep their value here; CreatedAtRoundedLeads fixes the leads it can.
 */
export class CreatedAtTruncated1763863200000 implements MigrationInterface {
  name = 'CreatedAtTruncated1763863200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION created_at_to_the_second() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.created_at := date_trunc('second', NEW.created_at);
        RETURN NEW;
      END $$`);
    for (const table of ['lead', 'call']) {
      await q.query(`ALTER TABLE ${table} ALTER COLUMN created_at TYPE timestamptz`);
      await q.query(
        `CREATE TRIGGER ${table}_created_at_second BEFORE INSERT OR UPDATE OF created_at ON ${table} FOR EACH ROW EXECUTE FUNCTION created_at_to_the_second()`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['call', 'lead']) {
      await q.query(`DROP TRIGGER ${table}_created_at_second ON ${table}`);
      await q.query(`ALTER TABLE ${table} ALTER COLUMN created_at TYPE timestamptz(0) USING date_trunc('second', created_at)`);
    }
    await q.query(`DROP FUNCTION created_at_to_the_second()`);
  }
}
