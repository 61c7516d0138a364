import { getMetadataArgsStorage } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/** How a column's values travel as JSON and through node-pg. */
export type ColumnKind = 'number' | 'bigint' | 'text' | 'boolean' | 'timestamp' | 'json' | 'other';

/** One column of an entity, as its decorator states it and the data source names it. */
export interface EntityColumn<E = unknown> {
  propertyName: keyof E & string;
  databaseName: string;
  kind: ColumnKind;
  /** The SQL type, for a cast (`varchar`, `date[]`). */
  sqlType: string;
  nullable: boolean;
  /** The entity's default when it is a plain value; undefined when none or SQL (`() => 'now()'`). */
  defaultValue?: string | number | boolean;
  sqlDefault: boolean;
}

const KINDS: Record<string, ColumnKind> = {
  integer: 'number',
  int: 'number',
  smallint: 'number',
  bigint: 'bigint',
  varchar: 'text',
  text: 'text',
  uuid: 'text',
  boolean: 'boolean',
  timestamptz: 'timestamp',
  jsonb: 'json',
  json: 'json',
};

const naming = new SnakeNamingStrategy();
/** Decorator modes that are table columns (`@Column`, `@PrimaryColumn`, `@CreateDateColumn`, ...). */
const COLUMN_MODES = new Set(['regular', 'createDate', 'updateDate', 'deleteDate', 'version']);

function kindOf(type: unknown, array: boolean | undefined): ColumnKind {
  if (array) return 'other';
  // @PrimaryGeneratedColumn() states no type: TypeORM gives it Number (an integer).
  if (type === Number) return 'number';
  return typeof type === 'string' ? (KINDS[type] ?? 'other') : 'other';
}

/**
 * An entity's plain columns (no relations or embedded ones), own before inherited, from the
 * decorators' metadata (TypeORM's `getMetadataArgsStorage`): known when the entity's module
 * loads, no DataSource needed. Named by the naming strategy the data source uses.
 */
export function entityColumns<E>(entity: abstract new () => E): Columns<E> {
  const seen = new Set<string>();
  const columns: EntityColumn<E>[] = [];
  for (let target: unknown = entity; typeof target === 'function' && target !== Function.prototype; target = Object.getPrototypeOf(target)) {
    for (const c of getMetadataArgsStorage().filterColumns(target as () => void)) {
      if (!COLUMN_MODES.has(c.mode) || seen.has(c.propertyName)) continue;
      seen.add(c.propertyName);
      columns.push({
        propertyName: c.propertyName as keyof E & string,
        databaseName: naming.columnName(c.propertyName, c.options.name, []),
        kind: kindOf(c.options.type, c.options.array),
        sqlType: `${c.options.type === Number ? 'integer' : String(c.options.type)}${c.options.array ? '[]' : ''}`,
        nullable: c.options.nullable === true,
        defaultValue: typeof c.options.default === 'function' ? undefined : (c.options.default as string | number | boolean | undefined),
        sqlDefault: typeof c.options.default === 'function',
      });
    }
  }
  return new Columns(columns);
}

/** Some columns of one entity, in order: the select lists, rows and name maps SQL takes from them. */
export class Columns<E> {
  private readonly byProperty: ReadonlyMap<string, EntityColumn<E>>;
  /** The timestamp columns, which reviveTimestamps turns into Dates (a detail read's every row). */
  private readonly timestamps: readonly EntityColumn<E>[];

  constructor(readonly list: readonly EntityColumn<E>[]) {
    this.byProperty = new Map(list.map((c) => [c.propertyName, c]));
    this.timestamps = list.filter((c) => c.kind === 'timestamp');
  }

  /** The column of a property; an unknown property throws. */
  get(property: keyof E & string): EntityColumn<E> {
    const column = this.byProperty.get(property);
    if (!column) throw new Error(`no column for property ${property}`);
    return column;
  }

  /** Whether a property is one of these columns. */
  has(property: string): property is keyof E & string {
    return this.byProperty.has(property);
  }

  /** These properties' columns, in the order given. */
  only(properties: readonly (keyof E & string)[]): Columns<E> {
    return new Columns(properties.map((p) => this.get(p)));
  }

  /** Every column but these properties'. */
  except(properties: readonly (keyof E & string)[]): Columns<E> {
    for (const p of properties) this.get(p);
    return new Columns(this.list.filter((c) => !properties.includes(c.propertyName)));
  }

  /** `INSERT INTO table (these columns) VALUES ($1, ...)`, its parameters from values(). */
  insertInto(table: string): string {
    return `INSERT INTO ${table} (${this.list.map((c) => c.databaseName).join(', ')}) VALUES (${this.list.map((_, i) => `$${i + 1}`).join(', ')})`;
  }

  /** The properties' values in column order: insertInto's parameters. */
  values(record: Partial<Record<keyof E & string, unknown>>): unknown[] {
    return this.list.map((c) => record[c.propertyName]);
  }

  /** Column name by property, e.g. for `assignments` (sql-params.ts). */
  names(): Record<keyof E & string, string> {
    return Object.fromEntries(this.list.map((c) => [c.propertyName, c.databaseName])) as Record<keyof E & string, string>;
  }

  /**
   * A select list reading each column as its property: `l.order_id AS "orderId"`, or as the expression
   * given for it. A bigint is read as text: a JS number cannot hold every bigint (nor can JSON's).
   */
  select(alias?: string, expressions: Partial<Record<keyof E & string, string>> = {}): string {
    const prefix = alias ? `${alias}.` : '';
    const read = (c: EntityColumn<E>) => expressions[c.propertyName] ?? `${prefix}${c.databaseName}${c.kind === 'bigint' ? '::text' : ''}`;
    return this.list.map((c) => `${read(c)} AS "${c.propertyName}"`).join(', ');
  }

  /**
   * The defined properties of `values` keyed by column name: a row for `jsonb_populate_record`,
   * which types each value by its column. A property without a column throws.
   */
  row(values: Partial<Record<keyof E & string, unknown>>): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    for (const [property, value] of Object.entries(values)) {
      if (value !== undefined) row[this.get(property as keyof E & string).databaseName] = value;
    }
    return row;
  }

  /** Of rows made by row(), the columns any of them gives, in table order: an INSERT's column list. */
  givenColumns(rows: readonly Record<string, unknown>[]): string[] {
    const given = new Set(rows.flatMap((r) => Object.keys(r)));
    return this.list.map((c) => c.databaseName).filter((name) => given.has(name));
  }

  /**
   * Every column's value for `jsonb_populate_record(NULL::table, row)`, keyed by column name: the property's, else the entity's
   * plain default, else null. Nulls are left out (a missing key reads as null): a shorter row to write and parse. A property of
   * no column, or a column with no value it can hold, throws.
   */
  populateRow(values: Partial<Record<keyof E & string, unknown>>): Record<string, unknown> {
    for (const [property, value] of Object.entries(values)) if (value !== undefined) this.get(property as keyof E & string);
    const row: Record<string, unknown> = {};
    for (const c of this.list) {
      const given = values[c.propertyName];
      const value = given !== undefined ? given : c.defaultValue !== undefined ? c.defaultValue : c.nullable && !c.sqlDefault ? null : undefined;
      if (value === undefined) throw new Error(`no value for column ${c.databaseName}, and no default a row can carry`);
      if (value !== null) row[c.databaseName] = value;
    }
    return row;
  }

  /** A row read as JSON (times as ISO 8601 text) with its timestamps made Dates, in place; nulls stay null. */
  reviveTimestamps<T>(row: Record<string, unknown>): T {
    for (const c of this.timestamps) {
      const value = row[c.propertyName];
      if (typeof value === 'string') row[c.propertyName] = new Date(value);
    }
    return row as T;
  }
}

/** true when A and B are the same set of keys; with Assert, a compile-time check that two shapes agree. */
export type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Assert<T extends true> = T;
