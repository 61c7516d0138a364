import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Cache } from '../../common/cache';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { DomainError, FieldError } from '../../common/domain-error';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { DEFAULT_SORT, OptionInput, validateOptions } from './domain/custom-field';
import { CustomFieldDefinition, CustomFieldType, CustomValuesCheck, Essence, referencedFieldIds, validateCustomValues } from './domain/custom-value';
import type { CustomFieldRow } from './domain/custom-field';
import { CustomFieldsRepository } from './persistence/custom-fields.repository';

export interface CreateCustomField {
  title: string;
  type: CustomFieldType;
  essence: Essence;
  sort?: number;
  params?: OptionInput[];
}

export interface UpdateCustomField {
  title?: string;
  sort?: number;
  /** Immutable: accepted only when equal to the stored value. */
  type?: CustomFieldType;
  essence?: Essence;
  /** Replaces the options (select and multiselect only). */
  params?: OptionInput[];
}

const CACHE_MAX_ENTRIES = 10_000;

/**
 * Custom field definitions and `validateValues`, the one entry point other modules use to validate custom values. Definitions
 * are cached per instance for REFERENCE_CACHE_TTL_MS (5 s): a change on another instance is seen within that bound, one made here at once.
 */
@Injectable()
export class CustomFieldsService {
  private readonly cache: Cache<number, CustomFieldDefinition>;

  constructor(
    private readonly ds: DataSource,
    private readonly repo: CustomFieldsRepository,
    private readonly idempotent: IdempotentWrites,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'referenceCacheTtlMs'>,
  ) {
    this.cache = new Cache({ ttlMs: config.referenceCacheTtlMs, max: CACHE_MAX_ENTRIES });
  }

  list(essence?: Essence): Promise<CustomFieldRow[]> {
    return this.repo.list(essence);
  }

  async detail(id: number): Promise<CustomFieldRow> {
    const row = await this.repo.findById(id);
    if (!row) throw DomainError.notFound('Custom field', id);
    return row;
  }

  async create(cmd: CreateCustomField): Promise<{ id: number }> {
    const options = validateOptions(cmd.type, cmd.params, true);
    if (!options.ok) throw DomainError.validation(options.errors);
    const id = await this.idempotent.transaction(
      (m) => this.repo.insert(m, { title: cmd.title, type: cmd.type, essence: cmd.essence, sort: cmd.sort ?? DEFAULT_SORT }, options.value),
      (created) => ({ id: created }),
    );
    this.cache.clear();
    return { id };
  }

  async update(id: number, cmd: UpdateCustomField): Promise<void> {
    try {
      await this.ds.transaction(async (m) => {
        const field = await this.repo.lockById(m, id);
        if (!field) throw DomainError.notFound('Custom field', id);
        const errors: FieldError[] = [];
        if (cmd.type !== undefined && cmd.type !== field.type) {
          errors.push({ field: 'type', message: `cannot be changed (is ${field.type})` });
        }
        if (cmd.essence !== undefined && cmd.essence !== field.essence) {
          errors.push({ field: 'essence', message: `cannot be changed (is ${field.essence})` });
        }
        const options = validateOptions(field.type, cmd.params, false);
        if (!options.ok) errors.push(...options.errors);
        if (errors.length || !options.ok) throw DomainError.validation(errors);
        if (cmd.title !== undefined || cmd.sort !== undefined) await this.repo.update(m, id, { title: cmd.title, sort: cmd.sort });
        if (cmd.params !== undefined && options.value.length > 0) await this.repo.replaceOptions(m, id, options.value);
      });
    } finally {
      this.cache.clear();
    }
  }

  /**
   * Checks a `customValues` input for `essence` against the fields it names (one query or the cache): the normalised map, or every
   * bad entry (`<path>.<fieldId>`) for the caller to merge. Inside a transaction, pass its manager so the definitions are read on
   * that connection, not a second one.
   */
  async validateValues(input: unknown, essence: Essence, path = 'customValues', m?: EntityManager): Promise<CustomValuesCheck> {
    const defs = await this.definitions(referencedFieldIds(input), m);
    return validateCustomValues(input, essence, defs, path);
  }

  /** Definitions by id; unknown ids are simply absent (and not cached, so a new field is seen at once). */
  private async definitions(ids: readonly number[], m?: EntityManager): Promise<Map<number, CustomFieldDefinition>> {
    const out = new Map<number, CustomFieldDefinition>();
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const hit = this.cache.get(id);
      if (hit) out.set(id, hit);
      else missing.push(id);
    }
    if (missing.length === 0) return out;
    for (const def of await this.repo.findDefinitions(missing, m)) {
      out.set(def.id, def);
      this.cache.set(def.id, def);
    }
    return out;
  }
}
