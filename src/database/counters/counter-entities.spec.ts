import { getMetadataArgsStorage } from 'typeorm';
import { counterEntities } from './counter-entities';
import { CounterSet } from './counter-set';

/** What TypeORM records for an entity made by counterEntities: its table, key (in order), other columns, indexes. */
function describeEntity(target: object) {
  const storage = getMetadataArgsStorage();
  const columns = storage.columns.filter((c) => c.target === target);
  return {
    table: storage.tables.find((t) => t.target === target)?.name,
    key: columns.filter((c) => c.options.primary).map((c) => `${c.propertyName} ${String(c.options.type)}`),
    columns: columns.filter((c) => !c.options.primary).map((c) => `${c.propertyName} ${String(c.options.type)}${c.options.nullable ? ' null' : ''}`),
    indexes: storage.indices.filter((i) => i.target === target).map((i) => `${i.name} (${String(i.columns)})`),
    generated: storage.generations.filter((g) => g.target === target).map((g) => `${g.propertyName} ${g.strategy}`),
  };
}

describe('counterEntities', () => {
  const counts = ['n bigint', 'min_id integer null', 'max_id integer null'];

  it('makes the delta, hour, day and total tables of a set, keyed as schema() keys them', () => {
    const entities = counterEntities(new CounterSet({ name: 'x_count', table: 'x', dimensions: ['a_id', 'b_id'], timeColumn: 'created_at', idColumn: 'id' }));
    expect(entities.map((e) => e.name)).toEqual(['XCountDeltaEntity', 'XCountHourEntity', 'XCountDayEntity', 'XCountTotalEntity']);
    expect(entities.map(describeEntity)).toEqual([
      {
        table: 'x_count_delta',
        key: ['id bigint'],
        columns: ['a_id integer', 'b_id integer', 'hour timestamptz', 'n integer', 'min_id integer null', 'max_id integer null'],
        indexes: [],
        generated: ['id identity'],
      },
      {
        table: 'x_count_hour',
        key: ['a_id integer', 'b_id integer', 'hour timestamptz'],
        columns: counts,
        indexes: ['x_count_hour_hour_idx (hour)'],
        generated: [],
      },
      {
        table: 'x_count_day',
        key: ['a_id integer', 'b_id integer', 'day timestamptz'],
        columns: counts,
        indexes: ['x_count_day_day_idx (day)'],
        generated: [],
      },
      { table: 'x_count_total', key: ['a_id integer', 'b_id integer'], columns: counts, indexes: [], generated: [] },
    ]);
  });

  it('adds the rollup tables of a set with a rollup: keys lead with the bucket, without the rolled-up dimension', () => {
    const entities = counterEntities(
      new CounterSet({ name: 'y_count', table: 'y', dimensions: ['a_id', 'b_id', 'c_id'], timeColumn: 'created_at', idColumn: 'id', rollup: 'a_id' }),
    );
    expect(entities.slice(4).map(describeEntity)).toEqual([
      { table: 'y_count_rollup_hour', key: ['hour timestamptz', 'b_id integer', 'c_id integer'], columns: counts, indexes: [], generated: [] },
      { table: 'y_count_rollup_day', key: ['day timestamptz', 'b_id integer', 'c_id integer'], columns: counts, indexes: [], generated: [] },
      { table: 'y_count_rollup_total', key: ['b_id integer', 'c_id integer'], columns: counts, indexes: [], generated: [] },
    ]);
  });
});
