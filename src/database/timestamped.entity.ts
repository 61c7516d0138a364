import { CreateDateColumn, UpdateDateColumn } from 'typeorm';

/** `created_at` and `updated_at` of a reference table, set by the database and by TypeORM on save. */
export abstract class TimestampedEntity {
  @CreateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
