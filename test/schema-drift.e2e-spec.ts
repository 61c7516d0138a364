import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/assembly/data-source';
import { schemaDrift } from '../src/database/schema-drift';
import { LEAD_EVENT_UNPRESENTED } from '../migrations/1795800400000-lead-created-by-job';
import { createTestDatabase, TestDbState, withDatabase } from './support/test-db';

/**
 * The entities are the schema in code and the migrations create it (the template is freshly migrated, global-setup.ts):
 * TypeORM's generator finds nothing to change, every table has an entity (the generator sees only those), and the
 * catalog matches a database synchronized from the entities, which covers what the generator does not compare.
 */
describe('schema drift: entities vs migrations', () => {
  let migrated: { url: string; drop(): Promise<void> };
  let ds: DataSource;

  beforeAll(async () => {
    migrated = await createTestDatabase();
    ds = await new DataSource(dataSourceOptions(migrated.url)).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await migrated?.drop();
  });

  it('the migration generator finds no difference between the entities and a freshly migrated database', async () => {
    const { upQueries } = await schemaDrift(ds);
    const statements = upQueries.map((q) => `${q.query};`);
    if (statements.length > 0) {
      console.error(`entities and migrations differ; npm run migration:generate would write:\n${statements.join('\n')}`);
    }
    expect(statements).toEqual([]);
  });

  it('every table the migrations create has an entity', async () => {
    const entityTables = new Set(ds.entityMetadatas.map((m) => m.tableName));
    const tables: { name: string }[] = await ds.query(
      `SELECT c.relname AS name FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
    );
    // `migrations` is TypeORM's own bookkeeping.
    expect(tables.map((t) => t.name).filter((name) => name !== 'migrations' && !entityTables.has(name))).toEqual([]);
  });

  it('the entities alone create the same constraints and indexes as the migrations', async () => {
    // The generator skips a partial index's WHERE, a check's expression and a foreign key's columns; the catalog does not.
    // Left out: what TypeORM cannot state (synchronize: false expression indexes, a primary key's INCLUDE columns).
    const tables = ds.entityMetadatas.map((m) => m.tableName);
    // Named in the entities but left to the migrations (synchronize: false): not created by synchronize.
    const handWritten = new Set(ds.entityMetadatas.flatMap((m) => m.indices.filter((i) => i.synchronize === false).map((i) => i.name)));
    const fromMigrations = await catalog(migrated.url, tables);

    const state = JSON.parse(readFileSync(process.env.CC_TEST_DB_STATE!, 'utf8')) as TestDbState;
    const name = `${state.template}_sync${process.pid}`;
    const admin = new Client({ connectionString: state.adminUrl });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
      const url = withDatabase(state.adminUrl, name);
      const fresh = await new DataSource(dataSourceOptions(url)).initialize();
      try {
        await fresh.synchronize();
      } finally {
        await fresh.destroy();
      }
      const fromEntities = await catalog(url, tables);
      expect(fromEntities).toEqual(fromMigrations.filter((line) => ![...handWritten].some((index) => line.startsWith(`index ${index}:`))));
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it('the lead.updated trigger compares every lead column but the unpresented ones (a new column is in one list)', async () => {
    const [{ def }] = await ds.query<{ def: string }[]>(`SELECT pg_get_functiondef('event_on_lead_update'::regproc) AS def`);
    const compared = [...def.matchAll(/OLD\.(\w+) IS DISTINCT FROM NEW\.(\w+)/g)].map((m) => {
      expect(m[2]).toBe(m[1]);
      return m[1];
    });
    const columns = (
      await ds.query<{ name: string }[]>(`SELECT attname AS name FROM pg_attribute WHERE attrelid = 'lead'::regclass AND attnum > 0 AND NOT attisdropped`)
    ).map((c) => c.name);
    expect([...compared, ...LEAD_EVENT_UNPRESENTED].sort()).toEqual([...columns].sort());
  });
});

/** Every constraint and index of these tables as PostgreSQL prints them, sorted; INCLUDE columns left out. */
async function catalog(url: string, tables: string[]): Promise<string[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const constraints = await c.query<{ line: string }>(
      `SELECT format('constraint %s on %s: %s', conname, conrelid::regclass, pg_get_constraintdef(oid)) AS line
         FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text = ANY($1)`,
      [tables],
    );
    const indexes = await c.query<{ line: string }>(
      `SELECT format('index %s: %s', indexname, indexdef) AS line FROM pg_indexes WHERE schemaname = 'public' AND tablename = ANY($1)`,
      [tables],
    );
    return [...constraints.rows, ...indexes.rows].map((r) => r.line.replace(/ INCLUDE \([^)]*\)/, '')).sort();
  } finally {
    await c.end();
  }
}
