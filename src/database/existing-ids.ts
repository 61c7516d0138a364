import { FindOptionsSelect, FindOptionsWhere, In, Repository } from 'typeorm';

/**
 * Which of `ids` have a row in the repository's table: one query (`id IN (...)`), none for no ids.
 * What a module exports so that another can check references to its rows without reading its table.
 */
export async function existingIds<T extends { id: number }>(repository: Repository<T>, ids: readonly number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await repository.find({
    select: { id: true } as FindOptionsSelect<T>,
    where: { id: In(unique) } as FindOptionsWhere<T>,
  });
  return rows.map((r) => r.id);
}
