import { DefaultNamingStrategy, NamingStrategyInterface, Table } from 'typeorm';

/** `lastName` → `last_name`, `socialAId` → `social_a_id`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * Maps the entities' camelCase properties to snake_case columns, so a column needs `name:` only when it breaks the rule. Constraint
 * and index names are explicit in the entities, except the single-column unique constraint TypeORM names itself: it gets
 * PostgreSQL's own `<table>_<column>_key`, the name the migrations' `UNIQUE` gives it.
 */
export class SnakeNamingStrategy extends DefaultNamingStrategy implements NamingStrategyInterface {
  override columnName(propertyName: string, customName: string | undefined, embeddedPrefixes: string[]): string {
    return customName ?? snakeCase([...embeddedPrefixes, propertyName].join('_'));
  }

  override uniqueConstraintName(tableOrName: Table | string, columnNames: string[]): string {
    const table = (typeof tableOrName === 'string' ? tableOrName : tableOrName.name).split('.').pop();
    return `${table}_${columnNames.join('_')}_key`;
  }
}
