import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event sequencer reads the retention's floor into a variable before it reads the highest position: Citus cannot push a
 * subquery in the target list down to the shards of a distributed `event` (`cannot push down subquery on the target list`).
 * Same positions on one node (docs/scaling.md, item 6).
 */
export class EventSequencerOnCitus1795800100000 implements MigrationInterface {
  name = 'EventSequencerOnCitus1795800100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION event_sequence(p_batch int) RETURNS int LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_floor bigint;
        v_base bigint;
        v_count int;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended('event-sequence', 0));
        SELECT r.pruned_through INTO v_floor FROM event_retention r;
        SELECT coalesce(max(e.position), v_floor) INTO v_base FROM event e WHERE e.position IS NOT NULL;
        UPDATE event e SET position = v_base + n.rn
          FROM (SELECT u.id, row_number() OVER (ORDER BY u.seq) AS rn
                  FROM (SELECT id, seq FROM event WHERE position IS NULL ORDER BY seq LIMIT p_batch) u) n
         WHERE e.id = n.id;
        GET DIAGNOSTICS v_count = ROW_COUNT;
        RETURN v_count;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION event_sequence(p_batch int) RETURNS int LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_base bigint;
        v_count int;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended('event-sequence', 0));
        SELECT coalesce(max(e.position), (SELECT r.pruned_through FROM event_retention r)) INTO v_base
          FROM event e WHERE e.position IS NOT NULL;
        UPDATE event e SET position = v_base + n.rn
          FROM (SELECT u.id, row_number() OVER (ORDER BY u.seq) AS rn
                  FROM (SELECT id, seq FROM event WHERE position IS NULL ORDER BY seq LIMIT p_batch) u) n
         WHERE e.id = n.id;
        GET DIAGNOSTICS v_count = ROW_COUNT;
        RETURN v_count;
      END $$`);
  }
}
