import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/assembly/data-source';
import { ENTITIES } from '../src/assembly/entities';
import { entityColumns } from '../src/database/entity-columns';
import { LeadEntity } from '../src/modules/leads/persistence/lead.entity';
import { createTestDatabase } from './support/test-db';

/**
 * entityColumns reads the decorators' metadata without a DataSource: for every entity it must
 * name the columns, their nullability and plain defaults as the DataSource's own metadata does.
 */
describe('entityColumns agrees with the DataSource metadata', () => {
  let db: { url: string; drop(): Promise<void> };
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await new DataSource(dataSourceOptions(db.url)).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it.each(ENTITIES.map((e) => [e.name, e]))('%s', (_name, entity) => {
    const plain = (d: unknown) => (typeof d === 'function' ? 'sql' : d);
    const fromMetadata = ds
      .getMetadata(entity)
      .columns.map((c) => ({ property: c.propertyName, column: c.databaseName, nullable: c.isNullable, default: plain(c.default) }));
    const ours = entityColumns(entity).list.map((c) => ({
      property: c.propertyName,
      column: c.databaseName,
      nullable: c.nullable,
      default: c.sqlDefault ? 'sql' : c.defaultValue,
    }));
    const byProperty = (a: { property: string }, b: { property: string }) => a.property.localeCompare(b.property);
    expect(ours.sort(byProperty)).toEqual(fromMetadata.sort(byProperty));
  });

  it('reads a kind off each SQL type', () => {
    const kinds = Object.fromEntries(entityColumns(LeadEntity).list.map((c) => [c.propertyName, c.kind]));
    expect(kinds).toMatchObject({ id: 'number', utcOffset: 'number', socialAId: 'bigint', phone: 'text', jobId: 'text' });
    expect(kinds).toMatchObject({ isSecondary: 'boolean', createdAt: 'timestamp', customValues: 'json' });
  });
});
