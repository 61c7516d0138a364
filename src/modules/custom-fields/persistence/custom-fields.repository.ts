import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { CustomFieldOption } from '../domain/custom-field';
import type { CustomFieldDefinition, CustomFieldType, Essence } from '../domain/custom-value';

export interface CustomFieldRow {
  id: number;
  title: string;
  type: CustomFieldType;
  essence: Essence;
  sort: number;
  options: CustomFieldOption[];
}

type FieldOnly = Omit<CustomFieldRow, 'options'>;

const FIELD_COLUMNS = `id, title, type, essence, sort`;

/** Plain SQL over custom_field and custom_field_option; options are always loaded for a whole set of fields at once. */
@Injectable()
export class CustomFieldsRepository {
  constructor(private readonly ds: DataSource) {}

  /** Every field (of one essence when given), ordered by sort then id, with options. Two queries. */
  async list(essence?: Essence): Promise<CustomFieldRow[]> {
    const fields: FieldOnly[] = essence
      ? await this.ds.query(`SELECT ${FIELD_COLUMNS} FROM custom_field WHERE essence = $1 ORDER BY sort, id`, [essence])
      : await this.ds.query(`SELECT ${FIELD_COLUMNS} FROM custom_field ORDER BY sort, id`);
    return this.withOptions(fields);
  }

  async findById(id: number, m: EntityManager = this.ds.manager): Promise<CustomFieldRow | null> {
    const fields: FieldOnly[] = await m.query(`SELECT ${FIELD_COLUMNS} FROM custom_field WHERE id = $1`, [id]);
    if (fields.length === 0) return null;
    return (await this.withOptions(fields, m))[0];
  }

  /** What the value validator needs, for just these ids, in one query. */
  async findDefinitions(ids: readonly number[], m: EntityManager = this.ds.manager): Promise<CustomFieldDefinition[]> {
    if (ids.length === 0) return [];
    return m.query(
      `SELECT f.id, f.type, f.essence,
              coalesce(array_agg(o.code ORDER BY o.sort, o.id) FILTER (WHERE o.code IS NOT NULL), '{}') AS "optionCodes"
         FROM custom_field f LEFT JOIN custom_field_option o ON o.field_id = f.id
        WHERE f.id = ANY($1::int[])
        GROUP BY f.id`,
      [ids],
    );
  }

  async insert(
    m: EntityManager,
    field: { title: string; type: CustomFieldType; essence: Essence; sort: number },
    options: readonly CustomFieldOption[],
  ): Promise<number> {
    const rows: { id: number }[] = await m.query(
      `INSERT INTO custom_field (title, type, essence, sort) VALUES ($1, $2, $3, $4) RETURNING id`,
      [field.title, field.type, field.essence, field.sort],
    );
    const id = rows[0].id;
    await this.insertOptions(m, id, options);
    return id;
  }

  /** Locks the field row for the rest of the transaction; null when it does not exist. */
  async lockById(m: EntityManager, id: number): Promise<FieldOnly | null> {
    const rows: FieldOnly[] = await m.query(`SELECT ${FIELD_COLUMNS} FROM custom_field WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  }

  async update(m: EntityManager, id: number, changes: { title?: string; sort?: number }): Promise<void> {
    await m.query(
      `UPDATE custom_field SET title = coalesce($2, title), sort = coalesce($3, sort), updated_at = now() WHERE id = $1`,
      [id, changes.title ?? null, changes.sort ?? null],
    );
  }

  /**
   * Replaces the options of a field with `options`, keyed by code: kept codes keep their row
   * (and so their place among equal sorts), new codes are added, missing codes are removed.
   */
  async replaceOptions(m: EntityManager, fieldId: number, options: readonly CustomFieldOption[]): Promise<void> {
    await m.query(`DELETE FROM custom_field_option WHERE field_id = $1 AND NOT (code = ANY($2::text[]))`, [
      fieldId,
      options.map((o) => o.code),
    ]);
    await this.insertOptions(m, fieldId, options, true);
  }

  private async insertOptions(m: EntityManager, fieldId: number, options: readonly CustomFieldOption[], upsert = false): Promise<void> {
    if (options.length === 0) return;
    await m.query(
      `INSERT INTO custom_field_option (field_id, code, title, sort)
       SELECT $1, o.code, o.title, o.sort
         FROM unnest($2::text[], $3::text[], $4::int[]) WITH ORDINALITY AS o(code, title, sort, n)
        ORDER BY o.n
       ${upsert ? 'ON CONFLICT (field_id, code) DO UPDATE SET title = EXCLUDED.title, sort = EXCLUDED.sort' : ''}`,
      [fieldId, options.map((o) => o.code), options.map((o) => o.title), options.map((o) => o.sort)],
    );
  }

  private async withOptions(fields: FieldOnly[], m: EntityManager = this.ds.manager): Promise<CustomFieldRow[]> {
    if (fields.length === 0) return [];
    const options: (CustomFieldOption & { fieldId: number })[] = await m.query(
      `SELECT field_id AS "fieldId", code, title, sort FROM custom_field_option WHERE field_id = ANY($1::int[]) ORDER BY sort, id`,
      [fields.map((f) => f.id)],
    );
    const byField = new Map<number, CustomFieldOption[]>();
    for (const o of options) {
      const list = byField.get(o.fieldId) ?? [];
      list.push({ code: o.code, title: o.title, sort: o.sort });
      byField.set(o.fieldId, list);
    }
    return fields.map((f) => ({ ...f, options: byField.get(f.id) ?? [] }));
  }
}
