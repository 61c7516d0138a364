import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Small catalogues a copy of which every node holds (Citus reference tables), in the order their foreign keys need: a table
 * comes after every catalogue it references.
 */
const REFERENCE = [
  'client',
  'app_user',
  'agent_group',
  'agent_group_member',
  'lead_status',
  'call_status',
  'call_scenario',
  'call_attempt_group',
  'sip_endpoint',
  'custom_field',
  'custom_field_option',
  'call_order',
  'order_agent',
  'order_agent_group',
  'order_sip_endpoint',
  'order_transfer_number',
  'dnc_entry',
];

const COUNTER_SETS = ['lead_count', 'lead_planning_count', 'call_count', 'call_user_count'];

/** The tables distributed by `order_id` in `lead`'s colocation group, after `lead` itself: an order's rows share a shard. */
const COLOCATED = ['call', ...COUNTER_SETS.flatMap((set) => ['delta', 'hour', 'day', 'total'].map((level) => `${set}_${level}`)), 'dialer_claim', 'event'];

/**
 * On a Citus cluster (the `citus` extension with a worker registered), places the tables as docs/scaling.md states: catalogues
 * as reference tables, the per-order tables distributed by `order_id` in one colocation group, the rest left on the
 * coordinator. On plain PostgreSQL it does nothing: one schema, two kinds of database.
 *
 * Triggers on distributed tables are refused unless `citus.enable_unsafe_triggers` is on; it is set for the database, so the
 * service's sessions and later migrations have it too. `call`'s reference to its lead is dropped while `lead` is distributed (a
 * foreign key from a coordinator table to a distributed one is refused) and made again once both are in the group.
 */
export class DistributeByOrder1795800300000 implements MigrationInterface {
  name = 'DistributeByOrder1795800300000';

  async up(q: QueryRunner): Promise<void> {
    if (!(await onCluster(q))) return;
    await q.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET citus.enable_unsafe_triggers = on', current_database()); END $$`);
    await q.query(`SET LOCAL citus.enable_unsafe_triggers = on`);
    // One connection per node for the whole migration: DDL after a reference table's writes in one transaction needs it.
    await q.query(`SET LOCAL citus.multi_shard_modify_mode = 'sequential'`);
    for (const table of REFERENCE) await q.query(`SELECT create_reference_table($1::regclass)`, [table]);
    await q.query(`ALTER TABLE call DROP CONSTRAINT call_order_id_lead_id_fkey`);
    await q.query(`SELECT create_distributed_table('lead', 'order_id', colocate_with => 'none')`);
    for (const table of COLOCATED) await q.query(`SELECT create_distributed_table($1::regclass, 'order_id', colocate_with => 'lead')`, [table]);
    await q.query(`ALTER TABLE call ADD CONSTRAINT call_order_id_lead_id_fkey FOREIGN KEY (order_id, lead_id) REFERENCES lead (order_id, id)`);
  }

  /**
   * Not undone on a cluster: Citus cannot undistribute a table with an identity column (the delta tables' `id`, `event.seq`:
   * `cannot complete operation on a table with identity column`), so the revert stops here with that reason instead of failing
   * half-way. On plain PostgreSQL there is nothing to undo.
   */
  async down(q: QueryRunner): Promise<void> {
    if (await onCluster(q)) {
      throw new Error('DistributeByOrder is not reverted on a Citus cluster: tables with identity columns cannot be undistributed');
    }
  }
}

/** A Citus coordinator with at least one worker (group 0 is the coordinator itself). */
async function onCluster(q: QueryRunner): Promise<boolean> {
  const [{ citus }] = (await q.query(`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`)) as { citus: boolean }[];
  if (!citus) return false;
  const [{ workers }] = (await q.query(`SELECT count(*)::int AS workers FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' AND isactive`)) as {
    workers: number;
  }[];
  return workers > 0;
}
