import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DataSource, QueryRunner } from 'typeorm';
import { applyMigrations } from '../src/assembly/data-source';
import { distribute, isCitusCluster, makeReference, Placement, placementOf } from '../src/database/citus';
import { createTestDatabase } from './support/test-db';

/** A QueryRunner on `url`, as a migration gets one. */
async function queryRunner(url: string): Promise<QueryRunner> {
  const ds = await new DataSource({ type: 'postgres', url }).initialize();
  const q = ds.createQueryRunner();
  await q.connect();
  return q;
}

async function close(q: QueryRunner | undefined): Promise<void> {
  await q?.release();
  await q?.connection.destroy();
}

/** The probe tables each run makes: a per-order table, one colocated with it, a catalogue. */
async function createProbeTables(c: QueryRunner, suffix: string): Promise<string[]> {
  const names = [`citus_probe_lead_${suffix}`, `citus_probe_call_${suffix}`, `citus_probe_catalogue_${suffix}`];
  await c.query(`CREATE TABLE ${names[0]} (order_id int NOT NULL, id int NOT NULL, PRIMARY KEY (order_id, id))`);
  await c.query(`CREATE TABLE ${names[1]} (order_id int NOT NULL, id int NOT NULL, lead_id int NOT NULL, PRIMARY KEY (order_id, id))`);
  await c.query(`CREATE TABLE ${names[2]} (id int PRIMARY KEY, code text NOT NULL UNIQUE)`);
  return names;
}

describe('Citus placement helpers on plain PostgreSQL', () => {
  let db: { url: string; drop(): Promise<void> };
  let c: QueryRunner;

  beforeAll(async () => {
    db = await createTestDatabase();
    c = await queryRunner(db.url);
  });
  afterAll(async () => {
    await close(c);
    await db?.drop();
  });

  it('docs/scaling.md states a placement for every table the migrations make, and for no other', async () => {
    const stated = statedPlacements(readFileSync(path.join(__dirname, '..', 'docs', 'scaling.md'), 'utf8'));
    const tables: { name: string }[] = await c.query(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'citus_probe_%' ORDER BY 1`,
    );
    expect([...stated.keys()].sort()).toEqual(tables.map((t) => t.name));
    expect(stated.get('lead')).toBe('distributed');
    expect(stated.get('call_order')).toBe('reference');
  });

  it('sees no cluster and leaves every table where it is', async () => {
    const [lead, call, catalogue] = await createProbeTables(c, 'plain');
    expect(await isCitusCluster(c)).toBe(false);
    expect(await distribute(c, lead, 'order_id')).toBe(false);
    expect(await distribute(c, call, 'order_id', lead)).toBe(false);
    expect(await makeReference(c, catalogue)).toBe(false);
    for (const t of [lead, call, catalogue]) expect(await placementOf(c, t)).toBe('local');
    // Still ordinary tables: writable, keys intact.
    await c.query(`INSERT INTO ${lead} VALUES (1, 1)`);
    await expect(c.query(`INSERT INTO ${lead} VALUES (1, 1)`)).rejects.toThrow(/duplicate key/);
  });
});

// The same helpers on a cluster: given a database made by `scripts/citus.sh createdb NAME` (see docs/scaling.md).
const clusterUrl = process.env.CITUS_TEST_DATABASE_URL;
(clusterUrl ? describe : describe.skip)('Citus placement helpers on a Citus cluster (CITUS_TEST_DATABASE_URL)', () => {
  let c: QueryRunner;
  let names: string[] = [];

  beforeAll(async () => {
    c = await queryRunner(clusterUrl!);
    names = await createProbeTables(c, `${process.pid}`);
  });
  afterAll(async () => {
    for (const t of [...names].reverse()) await c.query(`DROP TABLE IF EXISTS ${t}`);
    await close(c);
  });

  it('distributes colocated tables and makes reference tables, once', async () => {
    const [lead, call, catalogue] = names;
    expect(await isCitusCluster(c)).toBe(true);
    expect(await distribute(c, lead, 'order_id', 'none')).toBe(true);
    expect(await distribute(c, call, 'order_id', lead)).toBe(true);
    expect(await makeReference(c, catalogue)).toBe(true);
    expect([await placementOf(c, lead), await placementOf(c, call), await placementOf(c, catalogue)]).toEqual(['distributed', 'distributed', 'reference']);
    expect(await distribute(c, lead, 'order_id')).toBe(false);
    expect(await makeReference(c, catalogue)).toBe(false);

    const rows: { groups: number }[] = await c.query(
      `SELECT count(DISTINCT colocationid)::int AS groups FROM pg_dist_partition WHERE logicalrelid = ANY($1::regclass[])`,
      [[lead, call]],
    );
    expect(rows[0].groups).toBe(1);
  });
});

/**
 * The placement docs/scaling.md states, by table: each row of its placement table names tables in backticks (`_hour` after
 * `lead_count_delta` is `lead_count_hour`) and a placement (distributed, reference or coordinator). The pg-boss schema's row is
 * not a table of ours.
 */
function statedPlacements(markdown: string): Map<string, Placement> {
  const stated = new Map<string, Placement>();
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || !cells[1].startsWith('`') || cells[1].includes('schema')) continue;
    const names = [...cells[1].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    const stem = names[0].replace(/_[a-z]+$/, '');
    const placement: Placement = cells[2].startsWith('distributed') ? 'distributed' : cells[2].startsWith('reference') ? 'reference' : 'local';
    for (const name of names) stated.set(name.startsWith('_') ? stem + name : name, placement);
  }
  return stated;
}

(clusterUrl ? describe : describe.skip)('The schema on a Citus cluster (CITUS_TEST_DATABASE_URL)', () => {
  let c: QueryRunner;

  beforeAll(async () => {
    await applyMigrations(clusterUrl!);
    c = await queryRunner(clusterUrl!);
  }, 180_000);
  afterAll(async () => {
    await close(c);
  });

  it('places every table of the migrations as docs/scaling.md states, the distributed ones in one colocation group', async () => {
    const stated = statedPlacements(readFileSync(path.join(__dirname, '..', 'docs', 'scaling.md'), 'utf8'));
    const tables: { name: string }[] = await c.query(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'citus_probe_%' ORDER BY 1`,
    );
    const actual = new Map<string, Placement>();
    for (const { name } of tables) actual.set(name, await placementOf(c, name));
    expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(stated));

    const distributed = [...actual].filter(([, p]) => p === 'distributed').map(([name]) => name);
    expect(distributed).toContain('lead');
    const rows: { groups: number; columns: string[] }[] = await c.query(
      `SELECT count(DISTINCT colocationid)::int AS groups, array_agg(DISTINCT column_to_column_name(logicalrelid, partkey)) AS columns
         FROM pg_dist_partition WHERE logicalrelid = ANY($1::regclass[])`,
      [distributed],
    );
    expect(rows[0]).toEqual({ groups: 1, columns: ['order_id'] });
  });
});
