import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { entityColumns } from './entity-columns';

@Entity('sample')
class SampleEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar', length: 16 }) phone: string;
  @Column({ type: 'varchar', length: 32, default: 'API' }) createMethod: string;
  @Column({ type: 'bigint', nullable: true }) socialAId: string | null;
  @Column({ type: 'jsonb', default: () => `'{}'` }) customValues: Record<string, unknown>;
  @Column({ type: 'timestamptz', nullable: true }) planningCallAt: Date | null;
  @Column({ type: 'varchar', name: 'ext_a', nullable: true }) externalA: string | null;
  @CreateDateColumn({ type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
}

describe('entityColumns', () => {
  const columns = entityColumns(SampleEntity);

  it('names the columns as the naming strategy does, an explicit name first', () => {
    expect(columns.names()).toEqual({
      id: 'id',
      phone: 'phone',
      createMethod: 'create_method',
      socialAId: 'social_a_id',
      customValues: 'custom_values',
      planningCallAt: 'planning_call_at',
      externalA: 'ext_a',
      createdAt: 'created_at',
    });
  });

  it('selects each column as its property, bigints as text', () => {
    expect(columns.only(['id', 'socialAId', 'externalA']).select('s')).toBe('s.id AS "id", s.social_a_id::text AS "socialAId", s.ext_a AS "externalA"');
    expect(columns.except(['id', 'phone', 'createMethod', 'socialAId', 'customValues', 'planningCallAt']).select()).toBe(
      'ext_a AS "externalA", created_at AS "createdAt"',
    );
  });

  it('writes an INSERT of some columns and its parameters in their order', () => {
    const insert = columns.only(['phone', 'externalA']);
    expect(insert.insertInto('sample')).toBe('INSERT INTO sample (phone, ext_a) VALUES ($1, $2)');
    expect(insert.values({ externalA: 'x', phone: '+1' })).toEqual(['+1', 'x']);
  });

  it('keys a row by column, leaving out undefined values and refusing unknown properties', () => {
    expect(columns.row({ phone: '+1', socialAId: null, createMethod: undefined })).toEqual({ phone: '+1', social_a_id: null });
    expect(() => columns.row({ nope: 1 } as never)).toThrow(/no column for property nope/);
    expect(columns.givenColumns([{ phone: '+1' }, { ext_a: 'x', phone: '+2' }])).toEqual(['phone', 'ext_a']);
  });

  it('fills a row with plain defaults, leaves nulls out, and refuses a column it cannot fill', () => {
    const row = columns.except(['id', 'createdAt', 'customValues']);
    expect(row.populateRow({ phone: '+1', externalA: null })).toEqual({ phone: '+1', create_method: 'API' });
    expect(() => row.populateRow({ createMethod: 'x' })).toThrow(/no value for column phone/);
    expect(() => columns.except(['id', 'createdAt']).populateRow({ phone: '+1' })).toThrow(/no value for column custom_values/);
  });

  it('revives timestamps read as JSON text', () => {
    const lead = columns.reviveTimestamps<{ planningCallAt: Date | null; createdAt: Date; phone: string }>({
      planningCallAt: null,
      createdAt: '2026-01-02T03:04:05+00:00',
      phone: '+1',
    });
    expect(lead).toEqual({ planningCallAt: null, createdAt: new Date('2026-01-02T03:04:05Z'), phone: '+1' });
  });
});
