import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, Not, Repository } from 'typeorm';
import type { CustomFieldOption, CustomFieldRow } from '../domain/custom-field';
import type { CustomFieldDefinition, CustomFieldType, Essence } from '../domain/custom-value';
import { CustomFieldEntity, CustomFieldOptionEntity } from './custom-field.entity';
import { insertedId } from '../../../database/insert-result';

type FieldOnly = Omit<CustomFieldRow, 'options'>;

const FIELD_COLUMNS = { id: true, title: true, type: true, essence: true, sort: true } as const;

/** custom_field and custom_field_option through TypeORM; options are always loaded for a whole set of fields at once. */
@Injectable()
export class CustomFieldsRepository {
  constructor(private readonly ds: DataSource) {}

  private fields(m: EntityManager = this.ds.manager): Repository<CustomFieldEntity> {
    return m.getRepository(CustomFieldEntity);
  }

  private options(m: EntityManager = this.ds.manager): Repository<CustomFieldOptionEntity> {
    return m.getRepository(CustomFieldOptionEntity);
  }

  /** Every field (of one essence when given), ordered by sort then id, with options. Two queries. */
  async list(essence?: Essence): Promise<CustomFieldRow[]> {
    const fields = await this.fields().find({ select: FIELD_COLUMNS, where: essence ? { essence } : {}, order: { sort: 'ASC', id: 'ASC' } });
    return this.withOptions(fields);
  }

  async findById(id: number, m: EntityManager = this.ds.manager): Promise<CustomFieldRow | null> {
    const field = await this.fields(m).findOne({ select: FIELD_COLUMNS, where: { id } });
    if (!field) return null;
    return (await this.withOptions([field], m))[0];
  }

  /** What the value validator needs, for just these ids: the fields, then their option codes in order (cached by the service). */
  async findDefinitions(ids: readonly number[], m: EntityManager = this.ds.manager): Promise<CustomFieldDefinition[]> {
    if (ids.length === 0) return [];
    const fields = await this.fields(m).find({ select: { id: true, type: true, essence: true }, where: { id: In([...ids]) } });
    if (fields.length === 0) return [];
    const codes = await this.optionsOf(
      fields.map((f) => f.id),
      m,
    );
    return fields.map((f) => ({ id: f.id, type: f.type, essence: f.essence, optionCodes: (codes.get(f.id) ?? []).map((o) => o.code) }));
  }

  async insert(
    m: EntityManager,
    field: { title: string; type: CustomFieldType; essence: Essence; sort: number },
    options: readonly CustomFieldOption[],
  ): Promise<number> {
    const result = await this.fields(m).insert(field);
    const id = insertedId(result);
    if (options.length > 0) await this.options(m).insert(options.map((o) => ({ fieldId: id, code: o.code, title: o.title, sort: o.sort })));
    return id;
  }

  /** Locks the field row for the rest of the transaction; null when it does not exist. */
  lockById(m: EntityManager, id: number): Promise<FieldOnly | null> {
    return this.fields(m).findOne({ select: FIELD_COLUMNS, where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async update(m: EntityManager, id: number, changes: { title?: string; sort?: number }): Promise<void> {
    const set: Partial<Pick<CustomFieldEntity, 'title' | 'sort'>> = {};
    if (changes.title !== undefined) set.title = changes.title;
    if (changes.sort !== undefined) set.sort = changes.sort;
    await this.fields(m).update({ id }, set);
  }

  /**
   * Replaces the options of a field with `options`, keyed by code: kept codes keep their row
   * (and so their place among equal sorts), new codes are added, missing codes are removed.
   */
  async replaceOptions(m: EntityManager, fieldId: number, options: readonly CustomFieldOption[]): Promise<void> {
    const codes = options.map((o) => o.code);
    await this.options(m).delete(codes.length > 0 ? { fieldId, code: Not(In(codes)) } : { fieldId });
    if (options.length === 0) return;
    await this.options(m).upsert(
      options.map((o) => ({ fieldId, code: o.code, title: o.title, sort: o.sort })),
      { conflictPaths: ['fieldId', 'code'], skipUpdateIfNoValuesChanged: false },
    );
  }

  /** Options per field, by sort then id. */
  private async optionsOf(fieldIds: number[], m: EntityManager = this.ds.manager): Promise<Map<number, CustomFieldOption[]>> {
    const rows = await this.options(m).find({ where: { fieldId: In(fieldIds) }, order: { sort: 'ASC', id: 'ASC' } });
    const byField = new Map<number, CustomFieldOption[]>();
    for (const o of rows) byField.set(o.fieldId, [...(byField.get(o.fieldId) ?? []), { code: o.code, title: o.title, sort: o.sort }]);
    return byField;
  }

  private async withOptions(fields: FieldOnly[], m: EntityManager = this.ds.manager): Promise<CustomFieldRow[]> {
    if (fields.length === 0) return [];
    const byField = await this.optionsOf(
      fields.map((f) => f.id),
      m,
    );
    return fields.map((f) => ({ ...f, options: byField.get(f.id) ?? [] }));
  }
}
