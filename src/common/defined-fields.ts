/**
 * The fields of `o` whose value is not undefined. For TypeORM `where` and `update` objects: an
 * absent filter or an unchanged field is undefined in our inputs, and TypeORM refuses undefined
 * in a where (invalidWhereValuesBehavior) rather than ignoring it.
 */
export function definedFields<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
