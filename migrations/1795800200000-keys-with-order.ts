import { MigrationInterface, QueryRunner } from 'typeorm';

/** Per-order tables whose primary key was `(id)` alone; `event` is done apart (its order may be missing). */
const PER_ORDER = ['lead', 'call', 'lead_count_delta', 'lead_planning_count_delta', 'call_count_delta', 'call_user_count_delta'];

/** The foreign keys that reference a lead by (order_id, id): dropped while lead's keys change, then made again. */
const LEAD_REFERENCES: [table: string, name: string, columns: string][] = [
  ['lead', 'lead_previous_fk', 'order_id, previous_lead_id'],
  ['lead', 'lead_next_fk', 'order_id, next_lead_id'],
  ['call', 'call_order_id_lead_id_fkey', 'order_id, lead_id'],
];

/**
 * Every key of a per-order table includes `order_id`, as a table distributed by it requires, and an event
 * without an order has `order_id` 0 (the partition column cannot be NULL; the service reads 0 as "no order"). See
 * docs/scaling.md, "How the migrations place the tables".
 *
 * The primary keys become `(id, order_id)`: `id` leads, so a lookup by id alone still reads one index range, and no second
 * index on `id` is needed. `lead`'s `UNIQUE (order_id, id)` goes: the references to a lead by (order_id, id) now meet its
 * primary key. The feed's `UNIQUE (position)` becomes `UNIQUE (position, order_id)`: still the index the feed reads in position
 * order; a position stays unique overall because the one sequencer (`event_sequence`, under its lock) gives each once.
 * On one node nothing else changes.
 */
export class KeysWithOrder1795800200000 implements MigrationInterface {
  name = 'KeysWithOrder1795800200000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, name] of LEAD_REFERENCES) await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${name}`);
    await q.query(`ALTER TABLE lead DROP CONSTRAINT lead_order_id_key`);
    for (const table of PER_ORDER) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD CONSTRAINT ${table}_pkey PRIMARY KEY (id, order_id)`);
    }
    for (const [table, name, columns] of LEAD_REFERENCES) {
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${name} FOREIGN KEY (${columns}) REFERENCES lead (order_id, id)`);
    }

    await q.query(`UPDATE event SET order_id = 0 WHERE order_id IS NULL`);
    await q.query(`ALTER TABLE event ALTER COLUMN order_id SET NOT NULL`);
    await q.query(`ALTER TABLE event DROP CONSTRAINT event_pkey, ADD CONSTRAINT event_pkey PRIMARY KEY (id, order_id)`);
    await q.query(`DROP INDEX event_position_idx`);
    await q.query(`CREATE UNIQUE INDEX event_position_idx ON event (position, order_id) WHERE position IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX event_position_idx`);
    await q.query(`CREATE UNIQUE INDEX event_position_idx ON event (position) WHERE position IS NOT NULL`);
    await q.query(`ALTER TABLE event DROP CONSTRAINT event_pkey, ADD CONSTRAINT event_pkey PRIMARY KEY (id)`);
    await q.query(`ALTER TABLE event ALTER COLUMN order_id DROP NOT NULL`);
    await q.query(`UPDATE event SET order_id = NULL WHERE order_id = 0`);

    for (const [table, name] of LEAD_REFERENCES) await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${name}`);
    for (const table of PER_ORDER) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD CONSTRAINT ${table}_pkey PRIMARY KEY (id)`);
    }
    await q.query(`ALTER TABLE lead ADD CONSTRAINT lead_order_id_key UNIQUE (order_id, id)`);
    for (const [table, name, columns] of LEAD_REFERENCES) {
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${name} FOREIGN KEY (${columns}) REFERENCES lead (order_id, id)`);
    }
  }
}
