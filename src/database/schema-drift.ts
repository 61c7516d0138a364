import { DataSource } from 'typeorm';
import type { SqlInMemory } from 'typeorm/driver/SqlInMemory';

/**
 * What TypeORM's schema builder would change to make the database match the entities, without
 * changing anything: the statements `migration:generate` writes, and what the schema-drift test
 * expects to be empty on a freshly migrated database.
 */
export async function schemaDrift(ds: DataSource): Promise<SqlInMemory> {
  return ds.driver.createSchemaBuilder().log();
}
