import { DefaultNamingStrategy, NamingStrategyInterface, Table } from 'typeorm';

/** `lastName` → `last_name`, `socialAId` → `social_a_id`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * Entities name their properties in camelCase and the schema names columns in snake_case: this
 * maps one to the other, so a column needs `name:` only when it does not follow the rule.
 * Constraint and index names are given explicitly in the entities (the names the migrations
 * created). One exception: TypeORM names a single-column unique constraint it adds to an existing
 * column itself, ignoring the entity's name; it gets PostgreSQL's own name for it
 * (`<table>_<column>_key`), which is what the migrations' `UNIQUE` produced.
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
