import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import type { CustomFieldType, Essence } from '../domain/custom-value';

/** `custom_field`: an extra field of leads or orders (`essence`), its values kept in their `custom_values`. */
@Entity('custom_field')
@Check('custom_field_essence_check', `essence IN ('leads', 'orders')`)
@Check('custom_field_type_check', `type IN ('string', 'int', 'float', 'date', 'datetime', 'bool', 'select', 'multiselect')`)
@Index('custom_field_essence_idx', ['essence', 'sort', 'id'])
export class CustomFieldEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'custom_field_pkey' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'varchar', length: 16 })
  type: CustomFieldType;

  @Column({ type: 'varchar', length: 16 })
  essence: Essence;

  @Column({ type: 'integer', default: 100 })
  sort: number;

  @CreateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}

/** `custom_field_option`: the choices of a select or multiselect field. */
@Entity('custom_field_option')
@Unique('custom_field_option_field_id_code_key', ['fieldId', 'code'])
export class CustomFieldOptionEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'custom_field_option_pkey' })
  id: number;

  @Column({ type: 'integer' })
  @ForeignKey(() => CustomFieldEntity, { name: 'custom_field_option_field_id_fkey', onDelete: 'CASCADE' })
  fieldId: number;

  @Column({ type: 'varchar', length: 64 })
  code: string;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'integer', default: 100 })
  sort: number;
}
