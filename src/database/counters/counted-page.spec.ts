import { MAX_KEY_COMBINATIONS, pageIdsQuery } from './counted-page';
import { SqlParams } from '../sql-params';

const norm = (sql: string) => sql.replace(/\s+/g, ' ').trim();

describe('pageIdsQuery', () => {
  it('reads each combination of key values on its own, in id order, at most offset + limit rows each', () => {
    const p = new SqlParams();
    const sql = norm(
      pageIdsQuery(p, {
        table: 'lead',
        keys: [
          { column: 'order_id', values: [7, 9] },
          { column: 'status_id', values: [1, 2, 3] },
        ],
        conditions: [],
        ids: { minId: 10, maxId: 90 },
        offset: 20,
        limit: 50,
      }),
    );
    const branch = (o: string, st: string) =>
      `(SELECT t.id FROM lead t WHERE t.order_id = ${o} AND t.status_id = ${st} AND t.id >= $1 AND t.id <= $2 ORDER BY t.id LIMIT $3)`;
    expect(sql).toBe(
      `SELECT page.id FROM (${[branch('$4', '$5'), branch('$6', '$7'), branch('$8', '$9'), branch('$10', '$11'), branch('$12', '$13'), branch('$14', '$15')].join(' UNION ALL ')}) ` +
        'page ORDER BY page.id LIMIT $16 OFFSET $17',
    );
    expect(p.values).toEqual([10, 90, 70, 7, 1, 7, 2, 7, 3, 9, 1, 9, 2, 9, 3, 50, 20]);
  });

  it('reads a value given twice once (no row twice in a page)', () => {
    const p = new SqlParams();
    const sql = pageIdsQuery(p, { table: 'lead', keys: [{ column: 'order_id', values: [5, 5, 6] }], conditions: [], offset: 0, limit: 10 });
    expect(sql.match(/UNION ALL/g)).toHaveLength(1);
    expect(p.values).toEqual([10, 5, 6, 10, 0]);
  });

  it('turns the last keys into plain conditions when their combinations are too many, and walks the ids without keys', () => {
    const many = Array.from({ length: MAX_KEY_COMBINATIONS }, (_, i) => i + 1);
    const p = new SqlParams();
    const sql = norm(
      pageIdsQuery(p, {
        table: 'lead',
        keys: [
          { column: 'order_id', values: [1, 2] },
          { column: 'status_id', values: many },
        ],
        conditions: ['t.created_at >= $99'],
        offset: 0,
        limit: 10,
      }),
    );
    expect(sql).toContain('WHERE t.order_id = $3 AND t.created_at >= $99 AND t.status_id = ANY($1::int[]) ORDER BY t.id LIMIT $2');
    expect(sql.match(/UNION ALL/g)).toHaveLength(1);

    const none = new SqlParams();
    expect(norm(pageIdsQuery(none, { table: 'call', keys: [{ column: 'order_id', values: [] }], conditions: [], offset: 5, limit: 10 }))).toBe(
      'SELECT t.id FROM call t ORDER BY t.id LIMIT $1 OFFSET $2',
    );
  });
});
