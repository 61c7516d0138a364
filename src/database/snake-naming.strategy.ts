import { DefaultNamingStrategy, NamingStrategyInterface } from 'typeorm';

/** `lastName` → `last_name`, `socialAId` → `social_a_id`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * Entities name their properties in camelCase and the schema names columns in snake_case: this
 * maps one to the other, so a column needs `name:` only when it does not follow the rule.
 * Constraint and index names are always given explicitly in the entities (they are the names the
 * migrations created), never derived here.
 */
export class SnakeNamingStrategy extends DefaultNamingStrategy implements NamingStrategyInterface {
  override columnName(propertyName: string, customName: string | undefined, embeddedPrefixes: string[]): string {
    return customName ?? snakeCase([...embeddedPrefixes, propertyName].join('_'));
  }
}
