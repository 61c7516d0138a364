import { findPage } from './page';

/** Records the statements it is given and answers rows for the list and a count for the count. */
function fakeDb(rows: unknown[], n: number | string) {
  const calls: { sql: string; params?: unknown[] }[] = [];
  return {
    calls,
    query: (sql: string, params?: unknown[]) => {
      calls.push({ sql, params });
      return Promise.resolve(sql.includes('count(') ? [{ n }] : rows);
    },
  };
}

describe('findPage over SQL', () => {
  it('adds OFFSET and LIMIT after the filter parameters, and counts with the filter parameters only', async () => {
    const db = fakeDb([{ id: 5 }, { id: 6 }], 12);
    const page = await findPage(
      {
        db,
        select: 'SELECT id FROM t WHERE a = $1 AND b = $2 ORDER BY id',
        count: 'SELECT count(*)::int AS n FROM t WHERE a = $1 AND b = $2',
        params: ['x', 3],
      },
      4,
      2,
    );
    expect(page).toEqual({ list: [{ id: 5 }, { id: 6 }], next: 6, total: 12 });
    expect(db.calls).toEqual([
      { sql: 'SELECT id FROM t WHERE a = $1 AND b = $2 ORDER BY id OFFSET $3 LIMIT $4', params: ['x', 3, 4, 2] },
      { sql: 'SELECT count(*)::int AS n FROM t WHERE a = $1 AND b = $2', params: ['x', 3] },
    ]);
  });

  it('numbers from $1 without a filter, and reads a bigint count sent as text', async () => {
    const db = fakeDb([], '0');
    expect(await findPage({ db, select: 'SELECT id FROM t ORDER BY id', count: 'SELECT count(*) AS n FROM t' }, 0, 50)).toEqual({
      list: [],
      next: 0,
      total: 0,
    });
    expect(db.calls[0]).toEqual({ sql: 'SELECT id FROM t ORDER BY id OFFSET $1 LIMIT $2', params: [0, 50] });
  });
});
