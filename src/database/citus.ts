/**
 * Placement of tables on a Citus cluster, for migrations. On plain PostgreSQL (no `citus` extension,
 * or the extension without registered workers) every function here does nothing, so one migration
 * serves both kinds of database. See docs/scaling.md.
 */

/** What these helpers need of a TypeORM QueryRunner or EntityManager: one parameterised query. */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** How Citus holds a table: hash-distributed, a reference table (a copy on every node), or neither. */
export type Placement = 'distributed' | 'reference' | 'local';

async function rows<T>(q: SqlRunner, sql: string, parameters?: unknown[]): Promise<T[]> {
  return (await q.query(sql, parameters)) as T[];
}

/** Whether this database is a Citus coordinator with at least one worker registered. */
export async function isCitusCluster(q: SqlRunner): Promise<boolean> {
  const [{ installed }] = await rows<{ installed: boolean }>(q, `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS installed`);
  if (!installed) return false;
  // Group 0 is the coordinator; workers have groups of their own.
  const [{ workers }] = await rows<{ workers: number }>(
    q,
    `SELECT count(*)::int AS workers FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' AND isactive`,
  );
  return workers > 0;
}

/** The table's placement; `local` on plain PostgreSQL and for tables Citus does not shard or copy. */
export async function placementOf(q: SqlRunner, table: string): Promise<Placement> {
  if (!(await isCitusCluster(q))) return 'local';
  const found = await rows<{ method: string; replication: string }>(
    q,
    `SELECT partmethod AS method, repmodel AS replication FROM pg_dist_partition WHERE logicalrelid = $1::regclass`,
    [table],
  );
  if (found.length === 0) return 'local';
  if (found[0].method === 'h') return 'distributed';
  // Reference tables have no partition method and are replicated two-phase ('t'); tables only
  // added to Citus metadata ("Citus local tables", kept on the coordinator) are 's'.
  return found[0].replication === 't' ? 'reference' : 'local';
}

/**
 * Hash-distributes `table` by `column` on a Citus cluster, colocated with `colocateWith` (a table
 * already distributed by a column of the same type; `'none'` starts a group of its own) or, without
 * it, in the default colocation group of that type. Does nothing on plain PostgreSQL or when the table is already distributed.
 * Returns whether it distributed the table now.
 */
export async function distribute(q: SqlRunner, table: string, column: string, colocateWith?: string): Promise<boolean> {
  if ((await placementOf(q, table)) === 'distributed' || !(await isCitusCluster(q))) return false;
  await q.query(`SELECT create_distributed_table($1::regclass, $2, colocate_with => $3)`, [table, column, colocateWith ?? 'default']);
  return true;
}

/** Makes `table` a reference table on a Citus cluster; nothing on plain PostgreSQL or when it already is one. */
export async function makeReference(q: SqlRunner, table: string): Promise<boolean> {
  if ((await placementOf(q, table)) === 'reference' || !(await isCitusCluster(q))) return false;
  await q.query(`SELECT create_reference_table($1::regclass)`, [table]);
  return true;
}
