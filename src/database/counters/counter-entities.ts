import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { CounterSet } from './counter-set';

/** An entity class made here (what `ENTITIES` lists). */
export type CounterEntity = new () => object;

const BUCKETS = ['hour', 'day', null] as const;
type Bucket = (typeof BUCKETS)[number];

/**
 * The entities of a set's tables as `schema()` and `rollupSchema()` make them (columns, keys in DDL
 * order, indexes), for the migration generator and the schema-drift test; nothing reads through them.
 * Triggers stay in migrations; the day keys' INCLUDE is unstated (TypeORM compares key columns only).
 */
export function counterEntities(set: CounterSet): CounterEntity[] {
  const { name, dimensions, rollup } = set.spec;
  const ints = (columns: readonly string[]): KeyColumn[] => columns.map((c) => [c, 'integer']);
  const entities = [deltaEntity(`${name}_delta`, dimensions)];
  // Keys: the dimensions, then the bucket; each bucket has an index of its own.
  for (const bucket of BUCKETS) entities.push(countEntity(`${name}_${bucket ?? 'total'}`, [...ints(dimensions), ...keyOf(bucket)], bucket));
  if (rollup !== undefined) {
    // The rollups' keys lead with the bucket (rollupSchema); no other index.
    const rest = ints(dimensions.filter((d) => d !== rollup));
    for (const bucket of BUCKETS) entities.push(countEntity(`${name}_rollup_${bucket ?? 'total'}`, [...keyOf(bucket), ...rest], null));
  }
  return entities;
}

/** A key column and its type: the dimensions are ints, a bucket a timestamptz. */
type KeyColumn = [string, 'integer' | 'timestamptz'];
type PropertyDecorator = (target: object, property: string) => void;

const keyOf = (bucket: Bucket): KeyColumn[] => (bucket ? [[bucket, 'timestamptz']] : []);

/** An empty class named after its table (`lead_count_hour` -> `LeadCountHourEntity`), for TypeORM's metadata and messages. */
function entityClass(table: string): CounterEntity {
  const cls = class {};
  Object.defineProperty(cls, 'name', { value: `${table.replace(/(?:^|_)([a-z])/g, (_, c: string) => c.toUpperCase())}Entity` });
  return cls;
}

/** The entity of `table`: its properties are its column names (the snake-case naming strategy keeps them). */
function build(table: string, columns: [string, PropertyDecorator][], indexed: string | null = null): CounterEntity {
  const cls = entityClass(table);
  for (const [column, decorate] of columns) decorate(cls.prototype as object, column);
  if (indexed) Index(`${table}_${indexed}_idx`, [indexed])(cls);
  Entity(table)(cls);
  return cls;
}

/** `n`, `min_id`, `max_id` of a row: a signed int in a delta, a bigint in a counter. */
const countColumns = (n: 'integer' | 'bigint'): [string, PropertyDecorator][] => [
  ['n', Column({ type: n })],
  ['min_id', Column({ type: 'integer', nullable: true })],
  ['max_id', Column({ type: 'integer', nullable: true })],
];

/**
 * `<name>_delta`: an identity key, the dimensions and hour of a change, its signed count and id bounds. The key is (id, order_id)
 * where order_id is a dimension: a table distributed by it must include it (docs/scaling.md).
 */
function deltaEntity(table: string, dimensions: readonly string[]): CounterEntity {
  const pkey = `${table}_pkey`;
  return build(table, [
    ['id', PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: pkey })],
    ...dimensions.map((d): [string, PropertyDecorator] => [
      d,
      d === 'order_id' ? PrimaryColumn({ type: 'integer', primaryKeyConstraintName: pkey }) : Column({ type: 'integer' }),
    ]),
    ['hour', Column({ type: 'timestamptz' })],
    ...countColumns('integer'),
  ]);
}

/** A counter or rollup table: its key in primary-key order, its counts, and an index on `indexed` (a bucket). */
function countEntity(table: string, key: KeyColumn[], indexed: Bucket): CounterEntity {
  const primary = key.map(([column, type]): [string, PropertyDecorator] => [column, PrimaryColumn({ type, primaryKeyConstraintName: `${table}_pkey` })]);
  return build(table, [...primary, ...countColumns('bigint')], indexed);
}
